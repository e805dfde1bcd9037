"use client";
/**
 * The browser's access to a plant's dashboards (`/api/plants/{plantId}/dashboards…`, docs/api.md
 * "Dashboards") and the react-query keys the board pages share. A save sends the version the
 * person edited as `If-Match`; the server refuses it (EDIT_CONFLICT) when someone saved first.
 */
import { useQuery } from "@tanstack/react-query";
import type { TBoardFolder, TBoardPlacement, TDashboard, TDashboardDefinition, TDashboardList } from "@/modules/boards/contract/boards";
import { apiFetch, apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";


export const dashboardsApi = {
  list: (plantId: string, signal?: AbortSignal) => apiGet<TDashboardList>(apiPath("listDashboards", { plantId }), undefined, signal),
  get: (plantId: string, id: number, signal?: AbortSignal) => apiGet<TDashboard>(apiPath("getDashboard", { plantId, dashboardId: id }), undefined, signal),
  create: (plantId: string, definition: TDashboardDefinition) => apiSend<TDashboard>("POST", apiPath("createDashboard", { plantId }), definition),
  save: (plantId: string, id: number, version: number, definition: TDashboardDefinition) =>
    apiSend<TDashboard>("PUT", apiPath("replaceDashboard", { plantId, dashboardId: id }), definition, { "if-match": `"${version}"` }),
  remove: (plantId: string, id: number, version: number) => apiFetch<{ id: number }>(apiPath("deleteDashboard", { plantId, dashboardId: id }), { method: "DELETE", headers: { "if-match": `"${version}"` } }),
  /** The file's text as it was read: the server validates it whole. */
  importFile: (plantId: string, text: string) => apiFetch<TDashboard>(apiPath("importDashboard", { plantId }), { method: "POST", body: text }),
  exportHref: (plantId: string, id: number) => apiPath("exportDashboard", { plantId, dashboardId: id }),
  /** Its folder and who sees it (the owner and admins): not a new version of the board. */
  place: (plantId: string, id: number, placement: TBoardPlacement) => apiSend<TDashboard>("PUT", apiPath("placeDashboard", { plantId, dashboardId: id }), placement),
  createFolder: (plantId: string, name: string) => apiSend<TBoardFolder>("POST", apiPath("createBoardFolder", { plantId }), { name }),
  renameFolder: (plantId: string, id: number, name: string) => apiSend<TBoardFolder>("PUT", apiPath("renameBoardFolder", { plantId, folderId: id }), { name }),
  deleteFolder: (plantId: string, id: number) => apiFetch<{ id: number }>(apiPath("deleteBoardFolder", { plantId, folderId: id }), { method: "DELETE" }),
};

export const dashboardKeys = {
  all: (plantId: string) => ["plant", plantId, "dashboards"] as const,
  one: (plantId: string, id: number) => ["plant", plantId, "dashboards", id] as const,
};

export function useDashboards(plantId: string) {
  return useQuery({ queryKey: dashboardKeys.all(plantId), queryFn: ({ signal }) => dashboardsApi.list(plantId, signal) });
}

/** One board; `initial` is the board the page was rendered with (not asked for again for a while). */
export function useDashboard(plantId: string, id: number, initial?: TDashboard) {
  return useQuery({
    queryKey: dashboardKeys.one(plantId, id),
    queryFn: ({ signal }) => dashboardsApi.get(plantId, id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
    ...(initial ? { initialData: initial, staleTime: INITIAL_FRESH_MS } : {}),
  });
}

/** How long the board a page came with counts as fresh: the page was rendered just now. */
const INITIAL_FRESH_MS = 30_000;
