"use client";
/**
 * The signed-in user as `/api/me` reports it: who, which role, which plants, which permissions.
 * Pages hide what the user may not do from this list (the server refuses it anyway).
 */
import { useQuery } from "@tanstack/react-query";
import type { Permission } from "@/lib/contract/roles";
import type { TMe } from "@/lib/contract/dashboard";
import { apiGet } from "./api";
import { apiPath } from "@/lib/contract/api";

export type { TMe as Me, TMePlant as MePlant } from "@/lib/contract/dashboard";

export const meQueryKey = ["me"] as const;

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => apiGet<TMe>(apiPath("me"), undefined, signal),
    staleTime: 5 * 60_000,
  });
}

/** Whether the signed-in user holds a permission (false while `/api/me` is still loading). */
export function useCan(permission: Permission): boolean {
  const { data } = useMe();
  return data?.permissions.includes(permission) ?? false;
}
