import type { Metadata } from "next";
import { PlannedWork } from "@/modules/maintenance/components/assets/planned-work";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Planned work" };

export default plantPage(PlannedWork, "Loading planned work");
