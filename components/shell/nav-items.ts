/**
 * The side navigation: one entry per page of a plant, then the pages that belong to no plant (the
 * audit log). An entry whose permission the user lacks is not shown.
 */
import type { Permission } from "@/lib/contract/roles";

export type NavIcon = "overview" | "history" | "planned" | "plans" | "reliability" | "tasks" | "stock" | "telemetry" | "dashboards" | "monitors" | "audit" | "users";

interface NavItem {
  label: string;
  /** Path under `/plants/{plantId}`; "" is the plant's overview. */
  segment: string;
  /** An absolute path instead, for a page of no plant. */
  path?: string;
  permission: Permission;
  icon: NavIcon;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Overview", segment: "", permission: "maintenance:read", icon: "overview" },
  { label: "Job history", segment: "jobs", permission: "maintenance:read", icon: "history" },
  { label: "Planned work", segment: "planned", permission: "maintenance:read", icon: "planned" },
  { label: "Plans", segment: "plans", permission: "maintenance:read", icon: "plans" },
  { label: "Reliability", segment: "reliability", permission: "maintenance:read", icon: "reliability" },
  { label: "Task board", segment: "tasks", permission: "maintenance:read", icon: "tasks" },
  { label: "Stock levels", segment: "stock", permission: "maintenance:read", icon: "stock" },
  { label: "Telemetry", segment: "telemetry", permission: "telemetry:query", icon: "telemetry" },
  { label: "Dashboards", segment: "dashboards", permission: "dashboards:read", icon: "dashboards" },
  { label: "Monitors", segment: "monitors", permission: "monitors:read", icon: "monitors" },
  { label: "Audit log", segment: "", path: "/audit", permission: "audit:read", icon: "audit" },
  { label: "Users", segment: "", path: "/users", permission: "users:manage", icon: "users" },
];

export function plantPath(plantId: string, segment = ""): string {
  return `/plants/${encodeURIComponent(plantId)}${segment ? `/${segment}` : ""}`;
}

/** The section of a `/plants/{id}/{section}/…` path ("" for the overview). */
export function sectionOf(pathname: string): string {
  return pathname.split("/")[3] ?? "";
}
