/** The maintenance reads: the paginated listings, one task, a task's history, a part's history. */
import { ZPageQuery } from "@/lib/contract/common";
import { ApiError } from "@/lib/contract/errors";
import { ZAssetsQuery, ZJobsDoneQuery, ZJobsPlannedQuery, ZLookupValuesQuery, ZPartsQuery, ZTasksQuery } from "@/modules/maintenance/contract/maintenance";
import { parseWith } from "@/lib/platform/http/body";
import { checkPathId, quoteId } from "./context";
import type { Operation } from "./operation";
import type { MaintenanceStore } from "@/modules/maintenance/store";

const QUERY = "query parameters";

/**
 * The jobs-done page as the service computes it. The operation and the benchmark's bare baseline
 * server both call this, so the benchmark measures exactly the layers around it.
 */
export function jobsDonePage(store: MaintenanceStore, plantId: string, query: Record<string, string>) {
  return store.listJobsDone(plantId, parseWith(ZJobsDoneQuery, query, QUERY));
}

/** The path's task, or 404 TASK_NOT_FOUND when the plant has no such task. */
export async function existingTask(store: MaintenanceStore, plantId: string, params: Record<string, string>) {
  const taskId = checkPathId(params.taskId ?? "", "taskId");
  const task = await store.getTask(plantId, taskId);
  if (!task) throw new ApiError("TASK_NOT_FOUND", `Task ${quoteId(taskId)} does not exist in plant ${quoteId(plantId)}.`);
  return task;
}

/** The path's part id, or 404 PART_NOT_FOUND when the plant has no such part. */
export async function existingPart(store: MaintenanceStore, plantId: string, params: Record<string, string>) {
  const partId = checkPathId(params.partId ?? "", "partId");
  const part = await store.findPart(plantId, partId);
  if (!part) throw new ApiError("PART_NOT_FOUND", `Part ${quoteId(partId)} does not exist in plant ${quoteId(plantId)}.`);
  return { partId, part };
}

const value = async (result: Promise<unknown>) => ({ value: await result });

// Each parses its input before it reads: a bad parameter is a 400 whatever the store would say.
export const reads = {
  listJobsDone: ({ store }, plant, { query }) => value(jobsDonePage(store, plant.id, query)),
  listJobsPlanned: ({ store }, plant, { query }) => value(store.listJobsPlanned(plant.id, parseWith(ZJobsPlannedQuery, query, QUERY))),
  listAssets: ({ store }, plant, { query }) => value(store.listAssets(plant.id, parseWith(ZAssetsQuery, query, QUERY))),
  listTasks: ({ store }, plant, { query }) => value(store.listTasks(plant.id, parseWith(ZTasksQuery, query, QUERY))),
  getTask: ({ store }, plant, { params }) => value(existingTask(store, plant.id, params)),
  listTaskTransitions: async ({ store }, plant, { params, query }) => {
    const task = await existingTask(store, plant.id, params);
    return value(store.listTaskTransitions(task.id, parseWith(ZPageQuery, query, QUERY)));
  },
  listLookupValues: ({ store }, plant, { query }) => value(store.listLookupValues(plant.id, parseWith(ZLookupValuesQuery, query, QUERY))),
  listParts: ({ store }, plant, { query }) => value(store.listParts(plant.id, parseWith(ZPartsQuery, query, QUERY))),
  listStockLevels: async ({ store }, plant, { params, query }) => {
    const { partId } = await existingPart(store, plant.id, params);
    return value(store.listStockLevels(plant.id, partId, parseWith(ZPageQuery, query, QUERY)));
  },
} satisfies Record<string, Operation>;
