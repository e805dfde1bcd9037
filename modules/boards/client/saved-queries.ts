"use client";
/**
 * The browser's access to the plant's query library (`/api/plants/{plantId}/saved-queries…`,
 * docs/boards.md "The query library") and its react-query keys. The explorer, the panel editor and
 * the monitor editor read it; a link to a saved query names its id (`?savedQuery=<id>`).
 */
import { useQuery } from "@tanstack/react-query";
import { apiFetch, apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";
import type { TSavedQuery, TSavedQueryBody, TSavedQueryList } from "@/modules/boards/contract/saved-queries";

/** The explorer's URL parameter naming a saved query to open. */
export const SAVED_QUERY_PARAM = "savedQuery";

export const savedQueriesApi = {
  list: (plantId: string, signal?: AbortSignal) => apiGet<TSavedQueryList>(apiPath("listSavedQueries", { plantId }), undefined, signal),
  get: (plantId: string, id: number, signal?: AbortSignal) => apiGet<TSavedQuery>(apiPath("getSavedQuery", { plantId, savedQueryId: id }), undefined, signal),
  create: (plantId: string, body: TSavedQueryBody) => apiSend<TSavedQuery>("POST", apiPath("createSavedQuery", { plantId }), body),
  save: (plantId: string, id: number, body: TSavedQueryBody) => apiSend<TSavedQuery>("PUT", apiPath("replaceSavedQuery", { plantId, savedQueryId: id }), body),
  remove: (plantId: string, id: number) => apiFetch<{ id: number }>(apiPath("deleteSavedQuery", { plantId, savedQueryId: id }), { method: "DELETE" }),
  /** Says the query was just taken from the library to run ("last run"). */
  ran: (plantId: string, id: number) => apiSend<TSavedQuery>("POST", apiPath("runSavedQuery", { plantId, savedQueryId: id }), {}),
};

export const savedQueryKeys = {
  all: (plantId: string) => ["plant", plantId, "saved-queries"] as const,
  one: (plantId: string, id: number) => ["plant", plantId, "saved-queries", id] as const,
};

/** The whole library (at most 500, DASHBOARD_LIMITS): searched in the browser as the server would (matchesSearch). */
export function useSavedQueries(plantId: string, enabled = true) {
  return useQuery({ queryKey: savedQueryKeys.all(plantId), queryFn: ({ signal }) => savedQueriesApi.list(plantId, signal), enabled, staleTime: 15_000 });
}

/** The saved query a link names, by id (its title may have changed since). */
export function useSavedQuery(plantId: string, id: number | null) {
  return useQuery({
    queryKey: savedQueryKeys.one(plantId, id ?? 0),
    queryFn: ({ signal }) => savedQueriesApi.get(plantId, id!, signal),
    enabled: id !== null && Number.isSafeInteger(id) && id > 0,
    retry: false,
  });
}

/** Tags as typed ("pumps, line 2") → the list the server keeps. */
export const parseTags = (text: string): string[] =>
  text
    .split(",")
    .map((tag) => tag.trim().toLowerCase())
    .filter(Boolean);
