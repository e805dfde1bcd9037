import type { Metadata } from "next";
import { Suspense } from "react";
import { BoardPage } from "@/modules/boards/components/board-page";
import { PageSkeleton } from "@/components/ui/skeleton";
import { requireSignedInUser, server } from "@/app/page-server";
import { earlyAnswers } from "./early-answers";

export const metadata: Metadata = { title: "Dashboard" };

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * One dashboard of a plant. The board comes with the page (read with the API's checks), and its
 * panels' first answers stream in with it (early-answers.ts): nothing waits for the page to load
 * and hydrate before the queries start (bench/ui.ts, row 4).
 */
export default async function DashboardPage({ params, searchParams }: { params: Promise<{ plantId: string; dashboardId: string }>; searchParams: Promise<SearchParams> }) {
  const [{ plantId, dashboardId }, user, search] = await Promise.all([params, requireSignedInUser(), searchParams]);
  const plant = decodeURIComponent(plantId);
  const id = decodeURIComponent(dashboardId);
  const board = await server().boardForPage(user, plant, id);
  const early = board ? await earlyAnswers(board, toSearch(search)) : undefined;
  return (
    <Suspense fallback={<PageSkeleton label="Loading the dashboard" />}>
      <BoardPage plantId={plant} dashboardId={id} initial={board ?? undefined} early={early} />
    </Suspense>
  );
}

function toSearch(search: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) for (const item of [value ?? []].flat()) out.append(key, item);
  return out;
}
