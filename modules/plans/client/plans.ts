"use client";
/**
 * The browser's access to a plant's maintenance plans and its reliability record
 * (`/api/plants/{plantId}/maintenance-plans…`, `…/reliability`: the service's extensions, docs/api.md
 * "Maintenance plans" and "Reliability") and the react-query keys the plan pages share. A service
 * without the extension answers FEATURE_UNAVAILABLE: `isUnavailable` lets a page say so and hide it.
 */
import { useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch, apiGet, apiSend, fetchAllPages } from "@/lib/client/api";
import { operationApiPath } from "@/lib/contract/api";
import type { TPlannedJob } from "@/modules/maintenance/contract/maintenance";
import type { TMaintenancePlan, TMaintenancePlanInput, TPlanRunResult } from "@/modules/maintenance/contract/maintenance-plans";
import type { TReliability } from "@/modules/maintenance/contract/reliability";


/** A write's answer: the spec's write result, whose `data` holds the record written (its `id`). */
interface WriteResult {
  data: { id?: unknown }[];
}

/** The id of the record a write answered with, if it names one. */
export function writtenId(result: WriteResult): string | null {
  const id = result.data?.[0]?.id;
  return typeof id === "string" ? id : null;
}

export const plansApi = {
  list: (plantId: string, signal?: AbortSignal) => fetchAllPages<TMaintenancePlan>(operationApiPath("listMaintenancePlans", { plantId }), {}, signal),
  create: (plantId: string, body: TMaintenancePlanInput) => apiSend<WriteResult>("POST", operationApiPath("createMaintenancePlan", { plantId }), body),
  replace: (plantId: string, planId: string, body: TMaintenancePlanInput) => apiSend<WriteResult>("PUT", operationApiPath("updateMaintenancePlan", { plantId, planId }), body),
  remove: (plantId: string, planId: string) => apiFetch<WriteResult>(operationApiPath("deleteMaintenancePlan", { plantId, planId }), { method: "DELETE" }),
  run: (plantId: string, planId: string) => apiSend<TPlanRunResult>("POST", operationApiPath("runMaintenancePlan", { plantId, planId }), {}),
  /** Planned jobs due up to `endDate` (a plan's occurrences carry its `planId`). */
  planned: (plantId: string, endDate: string, signal?: AbortSignal) => fetchAllPages<TPlannedJob>(operationApiPath("listJobsPlanned", { plantId }), { endDate }, signal),
  reliability: (plantId: string, query: { startDate: string; endDate: string; assetTagNumber?: string }, signal?: AbortSignal) =>
    apiGet<TReliability>(operationApiPath("getReliability", { plantId }), query, signal),
};

export const planKeys = {
  all: (plantId: string) => ["plant", plantId, "maintenance-plans"] as const,
  /** Below the jobs-planned prefix, so a plan's save refreshes the planned-work pages too. */
  planned: (plantId: string, endDate: string) => ["plant", plantId, "jobs-planned", "plans", endDate] as const,
  reliability: (plantId: string, query: object) => ["plant", plantId, "reliability", query] as const,
};

export function usePlans(plantId: string) {
  return useQuery({ queryKey: planKeys.all(plantId), queryFn: ({ signal }) => plansApi.list(plantId, signal) });
}

/** The service lacks this extension (a remote service that follows only the spec). */
export function isUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.code === "FEATURE_UNAVAILABLE";
}
