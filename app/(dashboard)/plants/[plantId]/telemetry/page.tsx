import type { Metadata } from "next";
import { TelemetryExplorer } from "@/components/telemetry/telemetry-explorer";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Telemetry explorer" };

export default plantPage(TelemetryExplorer, "Loading the telemetry explorer");
