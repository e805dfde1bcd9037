"use client";
/**
 * The browser's access to a plant's contact points and routing policy (`/api/plants/{plantId}/
 * contact-points…` and `…/notification-policy`, docs/api.md "Contact points and routing") and the
 * react-query keys the routing page shares.
 */
import { useQuery } from "@tanstack/react-query";
import { apiFetch, apiGet, apiSend } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";
import type { TContactPoint, TContactPointInput, TNotificationPolicy } from "@/modules/monitors/contract/routing";

/** What the page sends: `webhookUrl` left out keeps the stored one (engineers never send it). */
export type ContactPointBody = Omit<TContactPointInput, "webhookUrl"> & { webhookUrl?: string | null };

export const routingApi = {
  list: (plantId: string, signal?: AbortSignal) => apiGet<{ data: TContactPoint[] }>(apiPath("listContactPoints", { plantId }), undefined, signal),
  create: (plantId: string, body: ContactPointBody) => apiSend<TContactPoint>("POST", apiPath("createContactPoint", { plantId }), body),
  replace: (plantId: string, id: number, body: ContactPointBody) => apiSend<TContactPoint>("PUT", apiPath("replaceContactPoint", { plantId, contactPointId: id }), body),
  remove: (plantId: string, id: number) => apiFetch<{ id: number }>(apiPath("deleteContactPoint", { plantId, contactPointId: id }), { method: "DELETE" }),
  policy: (plantId: string, signal?: AbortSignal) => apiGet<TNotificationPolicy>(apiPath("getNotificationPolicy", { plantId }), undefined, signal),
  savePolicy: (plantId: string, body: TNotificationPolicy) => apiSend<TNotificationPolicy>("PUT", apiPath("replaceNotificationPolicy", { plantId }), body),
};

export const routingKeys = {
  contactPoints: (plantId: string) => ["plant", plantId, "contact-points"] as const,
  policy: (plantId: string) => ["plant", plantId, "notification-policy"] as const,
};

export function useContactPoints(plantId: string) {
  return useQuery({ queryKey: routingKeys.contactPoints(plantId), queryFn: ({ signal }) => routingApi.list(plantId, signal) });
}

export function useNotificationPolicy(plantId: string) {
  return useQuery({ queryKey: routingKeys.policy(plantId), queryFn: ({ signal }) => routingApi.policy(plantId, signal) });
}
