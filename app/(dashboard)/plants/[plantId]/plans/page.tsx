import type { Metadata } from "next";
import { PlansPage } from "@/modules/plans/components/plans-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Maintenance plans" };

export default plantPage(PlansPage, "Loading the maintenance plans");
