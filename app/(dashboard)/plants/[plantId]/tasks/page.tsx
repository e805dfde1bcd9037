import type { Metadata } from "next";
import { TaskBoard, type BoardSeed } from "@/modules/maintenance/components/tasks/task-board";
import { readApiForPage } from "@/app/page-server";
import { API_PLANT_BASE } from "@/lib/contract/api";
import type { TPage } from "@/lib/contract/common";
import type { TLookupValue, TTask } from "@/modules/maintenance/contract/maintenance";
import { PAGE_SIZE_MAX } from "@/lib/contract/vocabulary";

export const metadata: Metadata = { title: "Task board" };

/**
 * The board with its tasks and the plant's labels read while the page renders (lib/bff/page-reads.ts),
 * so the first cards are in the HTML rather than drawn after hydration and a fetch; the browser
 * then polls as before. A read that fails leaves the board to fetch it and show the error itself.
 */
export default async function TaskBoardPage({ params }: { params: Promise<{ plantId: string }> }) {
  const plantId = decodeURIComponent((await params).plantId);
  const base = API_PLANT_BASE.replace("{plantId}", encodeURIComponent(plantId));
  // The first page at the largest size, as the browser's own read asks for it (fetchAllPages).
  const firstPage = { page: "1", pageSize: String(PAGE_SIZE_MAX) };
  const [tasks, lookups] = await Promise.all([
    readApiForPage<TPage<TTask>>(`${base}/tasks`, { query: firstPage }),
    readApiForPage<TPage<TLookupValue>>(`${base}/lookup-values`, { query: firstPage }),
  ]);
  const seed: BoardSeed = {
    tasks: tasks ? { data: tasks.value.data, complete: tasks.value.totalPages <= 1, readAt: tasks.readAt } : null,
    lookups: lookups && lookups.value.totalPages <= 1 ? { data: lookups.value.data, readAt: lookups.readAt } : null,
  };
  return <TaskBoard plantId={plantId} seed={seed} />;
}
