"use client";
/**
 * Typed access to the dashboard's maintenance routes (`/api/plants/{plantId}/…`, same paths, query
 * parameters and envelopes as the service) and the react-query hooks the pages share. Record
 * types come from the shared zod schemas, so the pages read exactly what the server validated.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { TPlantPerson } from "@/lib/contract/dashboard";
import type { TAsset, TJobDone, TLookupKind, TLookupValue, TPart, TStockLevelEntry, TTask, TTaskTransition } from "@/modules/maintenance/contract/maintenance";
import { apiPath, operationApiPath } from "@/lib/contract/api";
import { apiGet, fetchAllPages, type Page, type QueryValue } from "@/lib/client/api";

type Query = Record<string, QueryValue>;

export const maintenanceClient = {
  jobsDone: (plantId: string, query: Query, signal?: AbortSignal) => apiGet<Page<TJobDone>>(operationApiPath("listJobsDone", { plantId }), query, signal),
  allJobsDone: (plantId: string, query: Query, signal?: AbortSignal, onProgress?: (done: number, total: number) => void) =>
    fetchAllPages<TJobDone>(operationApiPath("listJobsDone", { plantId }), query, signal, onProgress),
  allTasks: (plantId: string, query: Query, signal?: AbortSignal) => fetchAllPages<TTask>(operationApiPath("listTasks", { plantId }), query, signal),
  taskHistory: (plantId: string, taskId: string, signal?: AbortSignal) =>
    fetchAllPages<TTaskTransition>(operationApiPath("listTaskTransitions", { plantId, taskId }), {}, signal),
  allAssets: (plantId: string, signal?: AbortSignal) => fetchAllPages<TAsset>(operationApiPath("listAssets", { plantId }), {}, signal),
  allParts: (plantId: string, query: Query, signal?: AbortSignal) => fetchAllPages<TPart>(operationApiPath("listParts", { plantId }), query, signal),
  stockHistory: (plantId: string, partId: string, signal?: AbortSignal) =>
    fetchAllPages<TStockLevelEntry>(operationApiPath("listStockLevels", { plantId, partId }), {}, signal),
  /** Every lookup value of the plant, all kinds in one listing (a few dozen). */
  lookupValues: (plantId: string, signal?: AbortSignal) => fetchAllPages<TLookupValue>(operationApiPath("listLookupValues", { plantId }), {}, signal),
};

/** Query keys: one prefix per plant and resource, so a write can invalidate exactly what it changed. */
export const maintenanceKeys = {
  jobsDone: (plantId: string, ...rest: unknown[]) => ["plant", plantId, "jobs-done", ...rest] as const,
  jobsPlanned: (plantId: string, ...rest: unknown[]) => ["plant", plantId, "jobs-planned", ...rest] as const,
  tasks: (plantId: string) => ["plant", plantId, "tasks"] as const,
  /** Below the task list's key, so whatever refreshes the list after a move refreshes the history too. */
  taskHistory: (plantId: string, taskId: string) => ["plant", plantId, "tasks", taskId, "history"] as const,
  assets: (plantId: string) => ["plant", plantId, "assets"] as const,
  parts: (plantId: string) => ["plant", plantId, "parts"] as const,
  stockHistory: (plantId: string, partId: string) => ["plant", plantId, "parts", partId, "history"] as const,
  lookups: (plantId: string) => ["plant", plantId, "lookup-values"] as const,
};

/** Reference data that rarely changes: cached for ten minutes. */
const REFERENCE_STALE_MS = 10 * 60_000;

/**
 * The plant's lookup values (activityKind, assignedToRole, priority: each company's own codes) and
 * how people read them. One cached request serves every page; `label` falls back to the code in
 * words (humanizeCode) for a value the plant has not configured, or while the values load, or when
 * the service lacks them.
 */
export interface LookupLabels {
  /** The label of a code, the code in words when there is none; "—" for no code. */
  label(kind: TLookupKind, code: string | null | undefined): string;
  /** The configured values of a kind, in the company's order (priorities: most urgent first). */
  values(kind: TLookupKind): readonly TLookupValue[];
  isPending: boolean;
  error: Error | null;
}

/**
 * A code as words, for a code without a label (a service without lookup values, one that follows
 * only the spec, or a value the plant has not configured): "CORRECTIVE" → "Corrective",
 * "MECH_TECH" → "Mech tech", "1-CRITICAL" → "1 critical". Words of up to three capitals stay as
 * they are (PM, CAL: abbreviations), and so does anything not written as a code ("P1", "Pump crew").
 */
export function humanizeCode(code: string): string {
  if (!/^[A-Z0-9]+(?:[_-][A-Z0-9]+)*$/.test(code)) return code;
  const words = code.split(/[_-]/).map((word) => (/^[A-Z]{4,}$/.test(word) ? word.toLowerCase() : word));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function lookupLabels(values: readonly TLookupValue[] | undefined): Pick<LookupLabels, "label" | "values"> {
  const byKind = new Map<TLookupKind, TLookupValue[]>();
  const labels = new Map<string, string>();
  for (const entry of values ?? []) {
    byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), entry]);
    if (entry.label.trim()) labels.set(`${entry.kind}\u0000${entry.value}`, entry.label);
  }
  return {
    label: (kind, code) => (code ? (labels.get(`${kind}\u0000${code}`) ?? humanizeCode(code)) : "—"),
    values: (kind) => byKind.get(kind) ?? [],
  };
}

/**
 * What a page's server component read for its client (app/…/tasks/page.tsx): the answer and when it
 * was read. `complete: false` (the first page of several) is shown at once and read whole right away.
 */
export interface ServerRead<T> {
  data: T;
  readAt: number;
  complete?: boolean;
}

/** react-query's options for a query that starts from a server read (none: an ordinary first fetch). */
function seeded<T>(read: ServerRead<T> | null | undefined) {
  return read ? { initialData: read.data, initialDataUpdatedAt: read.complete === false ? 0 : read.readAt } : {};
}

export function useLookupLabels(plantId: string, initial?: ServerRead<TLookupValue[]> | null): LookupLabels {
  const query = useQuery({
    queryKey: maintenanceKeys.lookups(plantId),
    queryFn: ({ signal }) => maintenanceClient.lookupValues(plantId, signal),
    staleTime: REFERENCE_STALE_MS,
    ...seeded(initial),
  });
  const { data, isPending, error } = query;
  // One object per answer, so memos that depend on it recompute only when the values change.
  return useMemo(() => ({ ...lookupLabels(data), isPending, error }), [data, isPending, error]);
}

/** A task's history (its creation and every move), oldest first; refreshed with the task list. */
export function useTaskHistory(plantId: string, taskId: string | null) {
  return useQuery({
    queryKey: maintenanceKeys.taskHistory(plantId, taskId ?? ""),
    queryFn: ({ signal }) => maintenanceClient.taskHistory(plantId, taskId!, signal),
    enabled: Boolean(taskId),
  });
}

export function useAssets(plantId: string) {
  return useQuery({
    queryKey: maintenanceKeys.assets(plantId),
    queryFn: ({ signal }) => maintenanceClient.allAssets(plantId, signal),
    staleTime: REFERENCE_STALE_MS,
  });
}

export function useParts(plantId: string) {
  return useQuery({
    queryKey: maintenanceKeys.parts(plantId),
    queryFn: ({ signal }) => maintenanceClient.allParts(plantId, {}, signal),
  });
}

/** The board re-reads its tasks this often; each read is revalidated by ETag (304 while nothing changed). */
const TASK_POLL_MS = 4000;

export function useTasks(plantId: string, options: { poll?: boolean; initial?: ServerRead<TTask[]> | null } = {}) {
  return useQuery({
    queryKey: maintenanceKeys.tasks(plantId),
    queryFn: ({ signal }) => maintenanceClient.allTasks(plantId, {}, signal),
    refetchInterval: options.poll ? TASK_POLL_MS : false,
    ...seeded(options.initial),
  });
}

/** The people a task of the plant can be assigned to (active users who can open it). */
export function usePlantPeople(plantId: string, enabled = true) {
  return useQuery({
    queryKey: ["plant", plantId, "people"] as const,
    queryFn: ({ signal }) => apiGet<{ data: TPlantPerson[] }>(apiPath("plantPeople", { plantId }), {}, signal).then((answer) => answer.data),
    staleTime: REFERENCE_STALE_MS,
    enabled,
  });
}
