"use client";
/**
 * The browser's access to the signed-in user's notification centre (docs/api.md, "Notifications").
 * The bell polls the summary; the server answers with an ETag and `no-cache`, so the browser's own
 * cache revalidates each poll (304 while nothing changed) without code here.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";
import type { TMarkRead, TNotificationList, TNotificationPrefs, TNotificationSummary } from "@/modules/notifications/contract/notifications";
import type { TNotificationKind } from "@/modules/notifications/contract/kinds";

/** How often the bell asks; a conditional request each time. */
const NOTIFICATION_POLL_MS = 30_000;

const notificationKeys = {
  all: ["notifications"] as const,
  summary: ["notifications", "summary"] as const,
  list: (show: "all" | "unread") => ["notifications", "list", show] as const,
  prefs: ["notifications", "preferences"] as const,
};

export function useNotificationSummary() {
  return useQuery({
    queryKey: notificationKeys.summary,
    queryFn: ({ signal }) => apiGet<TNotificationSummary>(apiPath("notificationSummary"), undefined, signal),
    refetchInterval: NOTIFICATION_POLL_MS,
  });
}

export function useNotifications(show: "all" | "unread") {
  return useQuery({
    queryKey: notificationKeys.list(show),
    queryFn: ({ signal }) => apiGet<TNotificationList>(apiPath("listNotifications"), show === "unread" ? { show } : undefined, signal),
    refetchInterval: NOTIFICATION_POLL_MS,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TMarkRead) => apiSend<TNotificationSummary & { changed: number }>("POST", apiPath("markNotificationsRead"), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useNotificationPrefs() {
  return useQuery({ queryKey: notificationKeys.prefs, queryFn: ({ signal }) => apiGet<TNotificationPrefs>(apiPath("getNotificationPrefs"), undefined, signal) });
}

export function useSaveNotificationPrefs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kinds: TNotificationKind[]) => apiSend<TNotificationPrefs>("PUT", apiPath("replaceNotificationPrefs"), { kinds }),
    onSuccess: (prefs) => queryClient.setQueryData(notificationKeys.prefs, prefs),
  });
}
