"use client";
/**
 * Typed access to the dashboard's maintenance routes (`/api/plants/{plantId}/…`, same paths, query
 * parameters and envelopes as the service) and the react-query hooks the pages share. Record
 * types come from the shared zod schemas, so the pages read exactly what the server validated.
 */
import { useQuery } from "@tanstack/react-query";
import type { TAsset, TJobDone, TLookupKind, TLookupValue, TPart, TPlannedJob, TStockLevelEntry, TTask } from "@/lib/upstream/schemas/maintenance";
import { apiGet, fetchAllPages, type Page, type QueryValue } from "./api";

export function plantApiPath(plantId: string, resource: string): string {
  return `/api/plants/${encodeURIComponent(plantId)}/${resource}`;
}

export type Query = Record<string, QueryValue>;

export const maintenanceApi = {
  jobsDone: (plantId: string, query: Query, signal?: AbortSignal) => apiGet<Page<TJobDone>>(plantApiPath(plantId, "jobs-done"), query, signal),
  allJobsDone: (plantId: string, query: Query, signal?: AbortSignal, onProgress?: (done: number, total: number) => void) =>
    fetchAllPages<TJobDone>(plantApiPath(plantId, "jobs-done"), query, signal, onProgress),
  jobsPlanned: (plantId: string, query: Query, signal?: AbortSignal) => apiGet<Page<TPlannedJob>>(plantApiPath(plantId, "jobs-planned"), query, signal),
  allTasks: (plantId: string, query: Query, signal?: AbortSignal) => fetchAllPages<TTask>(plantApiPath(plantId, "tasks"), query, signal),
  task: (plantId: string, taskId: string, signal?: AbortSignal) => apiGet<TTask>(plantApiPath(plantId, `tasks/${encodeURIComponent(taskId)}`), undefined, signal),
  allAssets: (plantId: string, signal?: AbortSignal) => fetchAllPages<TAsset>(plantApiPath(plantId, "assets"), {}, signal),
  allParts: (plantId: string, query: Query, signal?: AbortSignal) => fetchAllPages<TPart>(plantApiPath(plantId, "parts"), query, signal),
  stockHistory: (plantId: string, partId: string, signal?: AbortSignal) =>
    fetchAllPages<TStockLevelEntry>(plantApiPath(plantId, `parts/${encodeURIComponent(partId)}/stock-levels`), {}, signal),
  lookupValues: (plantId: string, kind: TLookupKind, signal?: AbortSignal) =>
    fetchAllPages<TLookupValue>(plantApiPath(plantId, "lookup-values"), { kind }, signal),
};

/** Query keys: one prefix per plant and resource, so a write can invalidate exactly what it changed. */
export const maintenanceKeys = {
  plant: (plantId: string) => ["plant", plantId] as const,
  jobsDone: (plantId: string, ...rest: unknown[]) => ["plant", plantId, "jobs-done", ...rest] as const,
  jobsPlanned: (plantId: string, ...rest: unknown[]) => ["plant", plantId, "jobs-planned", ...rest] as const,
  tasks: (plantId: string) => ["plant", plantId, "tasks"] as const,
  task: (plantId: string, taskId: string) => ["plant", plantId, "tasks", taskId] as const,
  assets: (plantId: string) => ["plant", plantId, "assets"] as const,
  parts: (plantId: string) => ["plant", plantId, "parts"] as const,
  stockHistory: (plantId: string, partId: string) => ["plant", plantId, "parts", partId, "history"] as const,
  lookup: (plantId: string, kind: TLookupKind) => ["plant", plantId, "lookup", kind] as const,
};

/** Reference data that rarely changes: cached for ten minutes. */
const REFERENCE_STALE_MS = 10 * 60_000;

export function useLookupValues(plantId: string, kind: TLookupKind) {
  return useQuery({
    queryKey: maintenanceKeys.lookup(plantId, kind),
    queryFn: ({ signal }) => maintenanceApi.lookupValues(plantId, kind, signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useAssets(plantId: string) {
  return useQuery({
    queryKey: maintenanceKeys.assets(plantId),
    queryFn: ({ signal }) => maintenanceApi.allAssets(plantId, signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useParts(plantId: string) {
  return useQuery({
    queryKey: maintenanceKeys.parts(plantId),
    queryFn: ({ signal }) => maintenanceApi.allParts(plantId, {}, signal),
  });
}

export function useTasks(plantId: string) {
  return useQuery({
    queryKey: maintenanceKeys.tasks(plantId),
    queryFn: ({ signal }) => maintenanceApi.allTasks(plantId, {}, signal),
  });
}

/** value → label for a lookup kind, falling back to the raw value for anything not configured. */
export function lookupLabeller(values: readonly TLookupValue[] | undefined): (value: string | null | undefined) => string {
  const labels = new Map((values ?? []).map((entry) => [entry.value, entry.label]));
  return (value) => (value ? (labels.get(value) ?? value) : "—");
}
