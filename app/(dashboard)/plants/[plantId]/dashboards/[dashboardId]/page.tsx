import type { Metadata } from "next";
import { Suspense } from "react";
import { BoardPage } from "@/components/dashboards/board-page";
import { PageSkeleton } from "@/components/ui/skeleton";

export const metadata: Metadata = { title: "Dashboard" };

/** One dashboard of a plant (the plant's layout has checked access). */
export default async function DashboardPage({ params }: { params: Promise<{ plantId: string; dashboardId: string }> }) {
  const { plantId, dashboardId } = await params;
  return (
    <Suspense fallback={<PageSkeleton label="Loading the dashboard" />}>
      <BoardPage plantId={decodeURIComponent(plantId)} dashboardId={decodeURIComponent(dashboardId)} />
    </Suspense>
  );
}
