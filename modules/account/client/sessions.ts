"use client";
/** The browser's access to the signed-in user's own sessions (docs/api.md, "Sessions"). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";
import type { TSessionList, TSessionsEnded } from "@/modules/account/contract/sessions";

const sessionKeys = { all: ["account", "sessions"] as const };

export function useMySessions() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: ({ signal }) => apiGet<TSessionList>(apiPath("listMySessions"), undefined, signal) });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (handle: string) => apiFetch<TSessionsEnded>(apiPath("endMySession", { sessionHandle: handle }), { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<TSessionsEnded>("POST", apiPath("endMyOtherSessions"), {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
