import type { Metadata } from "next";
import { JobHistory } from "@/modules/maintenance/components/jobs/job-history";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Job history" };

export default plantPage(JobHistory);
