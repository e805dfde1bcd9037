import type { Metadata } from "next";
import { DashboardsPage } from "@/modules/boards/components/boards-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Dashboards" };

export default plantPage(DashboardsPage, "Loading the dashboards");
