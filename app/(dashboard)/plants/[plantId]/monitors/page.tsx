import type { Metadata } from "next";
import { MonitorsPage } from "@/modules/monitors/components/monitors-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Monitors" };

export default plantPage(MonitorsPage, "Loading the monitors");
