import type { Metadata } from "next";
import { JobHistory } from "@/components/jobs/job-history";

export const metadata: Metadata = { title: "Job history" };

export default async function JobHistoryPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return <JobHistory plantId={decodeURIComponent(plantId)} />;
}
