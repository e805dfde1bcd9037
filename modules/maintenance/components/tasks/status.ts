/** How task statuses read and look on every page (board columns, badges, overview counts). */
import type { BadgeTone } from "@/components/ui/badge";
import type { TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { TASK_STATUSES } from "@/lib/contract/vocabulary";

export const STATUS_LABELS: Record<TTaskStatus, string> = {
  NEED_APPROVAL: "Needs approval",
  PENDING: "Pending",
  POSTPONEMENT_NEED_APPROVAL: "Postponement requested",
  POSTPONED: "Postponed",
  NEED_CONFIRMATION: "Needs confirmation",
  NOT_CLOSED: "Not closed",
  CLOSED: "Closed",
};

export const STATUS_TONES: Record<TTaskStatus, BadgeTone> = {
  NEED_APPROVAL: "warning",
  PENDING: "accent",
  POSTPONEMENT_NEED_APPROVAL: "warning",
  POSTPONED: "neutral",
  NEED_CONFIRMATION: "accent",
  NOT_CLOSED: "danger",
  CLOSED: "success",
};

/** Board order: the way work flows, closed last. */
export const BOARD_ORDER: readonly TTaskStatus[] = [
  "NEED_APPROVAL",
  "PENDING",
  "POSTPONEMENT_NEED_APPROVAL",
  "POSTPONED",
  "NEED_CONFIRMATION",
  "NOT_CLOSED",
  "CLOSED",
];

export const OPEN_STATUSES: readonly TTaskStatus[] = BOARD_ORDER.filter((status) => status !== "CLOSED");

export function isTaskStatus(value: string): value is TTaskStatus {
  return (TASK_STATUSES as readonly string[]).includes(value);
}

/** `?status=PENDING,POSTPONED` → the listed valid statuses (unknown ones are dropped). */
export function parseStatusParam(value: string | null): TTaskStatus[] {
  return (value ?? "").split(",").filter(isTaskStatus);
}
