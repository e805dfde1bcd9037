"use client";
/**
 * The browser's access to a plant's monitors (`/api/plants/{plantId}/monitors…`, docs/api.md
 * "Monitors") and the react-query keys the monitor pages share.
 */
import { useQuery } from "@tanstack/react-query";
import type { TFiring, TMonitor, TMonitorInput, TMonitorPreview, TMonitorRun } from "@/modules/monitors/contract/monitors";
import { apiFetch, apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";


export const monitorsApi = {
  list: (plantId: string, signal?: AbortSignal) => apiGet<{ data: TMonitor[] }>(apiPath("listMonitors", { plantId }), undefined, signal),
  create: (plantId: string, body: TMonitorInput) => apiSend<TMonitor>("POST", apiPath("createMonitor", { plantId }), body),
  replace: (plantId: string, id: number, body: TMonitorInput) => apiSend<TMonitor>("PUT", apiPath("replaceMonitor", { plantId, monitorId: id }), body),
  remove: (plantId: string, id: number) => apiFetch<{ id: number }>(apiPath("deleteMonitor", { plantId, monitorId: id }), { method: "DELETE" }),
  run: (plantId: string, id: number) => apiSend<TMonitorRun>("POST", apiPath("runMonitor", { plantId, monitorId: id }), {}),
  firings: (plantId: string, id: number, signal?: AbortSignal) => apiGet<{ data: TFiring[] }>(apiPath("listMonitorFirings", { plantId, monitorId: id }), undefined, signal),
  plantFirings: (plantId: string, filter: { assetTagNumber?: string; taskId?: string }, signal?: AbortSignal) =>
    apiGet<{ data: TFiring[] }>(apiPath("listPlantFirings", { plantId }), filter, signal),
  preview: (plantId: string, body: { query: string; keyColumns: string[]; every: string; lookback: string; from: string; to: string }, signal?: AbortSignal) =>
    apiFetch<TMonitorPreview>(apiPath("previewMonitor", { plantId }), { method: "POST", body: JSON.stringify(body), signal }),
};

export const monitorKeys = {
  all: (plantId: string) => ["plant", plantId, "monitors"] as const,
  firings: (plantId: string, id: number) => ["plant", plantId, "monitors", id, "firings"] as const,
  plantFirings: (plantId: string, filter: { assetTagNumber?: string; taskId?: string }) => ["plant", plantId, "monitors", "firings-of", filter] as const,
};

export function useMonitors(plantId: string) {
  return useQuery({ queryKey: monitorKeys.all(plantId), queryFn: ({ signal }) => monitorsApi.list(plantId, signal), refetchInterval: 30_000 });
}

/** Firings of one asset or one task (asset page, task drawer); off when `enabled` is false (a role without monitors). */
export function usePlantFirings(plantId: string, filter: { assetTagNumber?: string; taskId?: string }, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.plantFirings(plantId, filter),
    queryFn: ({ signal }) => monitorsApi.plantFirings(plantId, filter, signal),
    enabled: enabled && Boolean(filter.assetTagNumber || filter.taskId),
  });
}

/** The explorer with a monitor's query over its lookback, ending now. */
export function explorerLink(plantId: string, query: string): string {
  const params = new URLSearchParams({ q: query, range: "24h", plants: plantId });
  return `/plants/${encodeURIComponent(plantId)}/telemetry?${params}`;
}
