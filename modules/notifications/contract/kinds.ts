/**
 * What a user can be told, as plain values without zod: the notifications page and the bell name
 * kinds with these, and the schemas in notifications.ts are built from them (docs/architecture.md,
 * "What the browser loads").
 */

export const NOTIFICATION_KINDS = ["firing", "assigned", "approval", "decision"] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABEL: Record<TNotificationKind, string> = {
  firing: "Monitor firings of my plants",
  assigned: "Tasks assigned to me",
  approval: "Approvals waiting for me",
  decision: "My requests approved or refused",
};
