import type { Metadata } from "next";
import { PlantOverview } from "@/components/overview/plant-overview";
import { plantPage } from "./plant-page";

export const metadata: Metadata = { title: "Overview" };

export default plantPage(PlantOverview);
