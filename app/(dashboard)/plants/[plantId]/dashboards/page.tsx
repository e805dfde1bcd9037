import type { Metadata } from "next";
import { DashboardsPage } from "@/components/dashboards/dashboards-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Dashboards" };

export default plantPage(DashboardsPage, "Loading the dashboards");
