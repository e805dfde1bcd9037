"use client";
/**
 * The signed-in user as `/api/me` reports it: who, which role, which plants, which permissions.
 * Pages hide what the user may not do from this list (the server refuses it anyway).
 */
import { useQuery } from "@tanstack/react-query";
import type { Permission, Role } from "@/lib/auth/roles";
import { apiGet } from "./api";

export interface MePlant {
  id: string;
  name: string;
  /** Unknown (null) for some plants of a remote service. */
  customerId: string | null;
}

export interface Me {
  email: string;
  name: string;
  role: Role;
  plants: MePlant[];
  permissions: Permission[];
}

export const meQueryKey = ["me"] as const;

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => apiGet<Me>("/api/me", undefined, signal),
    staleTime: 5 * 60_000,
  });
}

/** Whether the signed-in user holds a permission (false while `/api/me` is still loading). */
export function useCan(permission: Permission): boolean {
  const { data } = useMe();
  return data?.permissions.includes(permission) ?? false;
}
