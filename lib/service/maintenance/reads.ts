/** The paginated GET endpoints: jobs done, planned jobs, assets, tasks, lookup values, parts. */
import {
  ZAssetsQuery,
  ZJobsDoneQuery,
  ZJobsPlannedQuery,
  ZLookupValuesQuery,
  ZPartsQuery,
  ZTasksQuery,
} from "@/lib/upstream/schemas/maintenance";
import { ZPageQuery } from "@/lib/upstream/schemas/common";
import { ServiceError } from "../errors";
import { parseWith } from "../http/body";
import type { ServiceRequest } from "../http/types";
import type { MaintenanceStore } from "../store/maintenance-store";
import { checkPathId, quoteId } from "./context";

const QUERY = "query parameters";

/**
 * The jobs-done page as the service computes it. The HTTP handler and the benchmark's bare
 * baseline server both call this, so the benchmark measures exactly the HTTP layer around it.
 */
export function jobsDonePage(store: MaintenanceStore, plantId: string, query: Record<string, string>) {
  return store.listJobsDone(plantId, parseWith(ZJobsDoneQuery, query, QUERY));
}

type Reader = (store: MaintenanceStore, plantId: string, query: Record<string, string>, req: ServiceRequest, params: Record<string, string>) => unknown;

/** Each read computes the response value; the route table wraps it with the checks and serialises it. */
export const readers = {
  jobsDone: jobsDonePage,
  jobsPlanned: (store, plantId, query) => store.listJobsPlanned(plantId, parseWith(ZJobsPlannedQuery, query, QUERY)),
  assets: (store, plantId, query) => store.listAssets(plantId, parseWith(ZAssetsQuery, query, QUERY)),
  tasks: (store, plantId, query) => store.listTasks(plantId, parseWith(ZTasksQuery, query, QUERY)),
  task: (store, plantId, _query, _req, params) => {
    const taskId = checkPathId(params.taskId!, "taskId");
    const task = store.getTask(plantId, taskId);
    if (!task) throw new ServiceError("TASK_NOT_FOUND", `Task ${quoteId(taskId)} does not exist in plant ${quoteId(plantId)}.`);
    return task;
  },
  lookupValues: (store, plantId, query) => store.listLookupValues(plantId, parseWith(ZLookupValuesQuery, query, QUERY)),
  parts: (store, plantId, query) => store.listParts(plantId, parseWith(ZPartsQuery, query, QUERY)),
  stockLevels: (store, plantId, query, _req, params) => {
    const partId = checkPathId(params.partId!, "partId");
    if (!store.findPart(plantId, partId)) {
      throw new ServiceError("PART_NOT_FOUND", `Part ${quoteId(partId)} does not exist in plant ${quoteId(plantId)}.`);
    }
    return store.listStockLevels(plantId, partId, parseWith(ZPageQuery, query, QUERY));
  },
} satisfies Record<string, Reader>;
