/**
 * The in-app notification centre (docs/api.md, "Notifications"): what a user is told — a monitor
 * of one of their plants fired, a task was assigned to them, an approval waits for them, their
 * request was approved or refused — kept per user, newest first, bounded. No server-only import.
 */
import { z } from "@/lib/contract/zod";
import { NOTIFICATION_KINDS } from "./kinds";

export const NOTIFICATION_LIMITS = {
  /** Kept per user: older ones go (and any older than keepDays). */
  perUser: 200,
  keepDays: 90,
  /** Ids one "mark read" may name. */
  markIds: 200,
} as const;

const ZNotification = z
  .object({
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS),
    plantId: z.string(),
    title: z.string(),
    /** A path of this dashboard: the firing's monitor or the task. */
    link: z.string(),
    createdAt: z.string(),
    readAt: z.string().nullable(),
  })
  .meta({ id: "Notification" });

export const ZNotificationList = z.object({ unread: z.number().int(), data: z.array(ZNotification) });

/** GET /api/notifications/summary: what the bell shows (revalidated by ETag). */
export const ZNotificationSummary = z.object({ unread: z.number().int(), latestId: z.number().int().nullable() });

export const ZNotificationQuery = z.object({ show: z.enum(["all", "unread"]).default("all") });

/** Body of POST /api/notifications/read: some ids, or all. */
export const ZMarkRead = z
  .strictObject({
    ids: z.array(z.number().int().positive()).min(1).max(NOTIFICATION_LIMITS.markIds).optional(),
    all: z.literal(true).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), "name either ids or all: true");

/** Body and answer of GET/PUT /api/notifications/preferences: the kinds the user wants. */
export const ZNotificationPrefs = z.object({ kinds: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length) }).meta({ id: "NotificationPreferences" });

export type TNotification = z.infer<typeof ZNotification>;
export type TNotificationList = z.infer<typeof ZNotificationList>;
export type TNotificationSummary = z.infer<typeof ZNotificationSummary>;
export type TNotificationPrefs = z.infer<typeof ZNotificationPrefs>;
export type TMarkRead = z.output<typeof ZMarkRead>;
