import type { Metadata } from "next";
import { MonitorsPage } from "@/components/monitors/monitors-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Monitors" };

export default plantPage(MonitorsPage, "Loading the monitors");
