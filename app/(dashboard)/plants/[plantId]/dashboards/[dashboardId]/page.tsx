import type { Metadata } from "next";
import { Suspense } from "react";
import { BoardPage } from "@/components/dashboards/board-page";
import { PageSkeleton } from "@/components/ui/skeleton";
import { dashboardForPage } from "@/lib/bff/dashboards";
import { requireSignedInUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Dashboard" };

/**
 * One dashboard of a plant. The board comes with the page (read with the API's checks), so the
 * panels' queries start when the page hydrates, not a round trip later (bench/ui.ts, row 4).
 */
export default async function DashboardPage({ params }: { params: Promise<{ plantId: string; dashboardId: string }> }) {
  const [{ plantId, dashboardId }, user] = await Promise.all([params, requireSignedInUser()]);
  const plant = decodeURIComponent(plantId);
  const id = decodeURIComponent(dashboardId);
  const initial = await dashboardForPage(user, plant, id);
  return (
    <Suspense fallback={<PageSkeleton label="Loading the dashboard" />}>
      <BoardPage plantId={plant} dashboardId={id} initial={initial ?? undefined} />
    </Suspense>
  );
}
