import type { Metadata } from "next";
import { ReliabilityPage } from "@/modules/plans/components/reliability-page";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Reliability" };

export default plantPage(ReliabilityPage, "Loading the reliability record");
