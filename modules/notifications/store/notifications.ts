/**
 * Each user's notifications, chosen kinds and the requesters of decisions, in the dashboard's
 * store (docs/api.md, "Notifications"). Bounded per user: an insert drops what is beyond
 * NOTIFICATION_LIMITS.perUser and older than keepDays.
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import { NOTIFICATION_LIMITS, type TNotification, type TNotificationSummary } from "@/modules/notifications/contract/notifications";
import { NOTIFICATION_KINDS, type TNotificationKind } from "@/modules/notifications/contract/kinds";

interface NotificationRow {
  id: number;
  kind: string;
  plant_id: string;
  title: string;
  link: string;
  created_at: string;
  read_at: string | null;
}

const toNotification = (row: NotificationRow): TNotification => ({
  id: Number(row.id),
  kind: row.kind as TNotificationKind,
  plantId: row.plant_id,
  title: row.title,
  link: row.link,
  createdAt: row.created_at,
  readAt: row.read_at,
});

export interface NewNotification {
  kind: TNotificationKind;
  plantId: string;
  title: string;
  link: string;
}

export async function addNotification(db: SqlExecutor, userEmail: string, item: NewNotification, now: number): Promise<void> {
  await db.run("INSERT INTO notifications (user_email, kind, plant_id, title, link, created_at) VALUES (@userEmail, @kind, @plantId, @title, @link, @at)", {
    userEmail,
    ...item,
    at: new Date(now).toISOString(),
  });
  await db.run(
    `DELETE FROM notifications WHERE user_email = @userEmail AND (created_at < @cutoff OR id <=
       (SELECT id FROM notifications WHERE user_email = @userEmail ORDER BY id DESC LIMIT 1 OFFSET ${NOTIFICATION_LIMITS.perUser}))`,
    { userEmail, cutoff: new Date(now - NOTIFICATION_LIMITS.keepDays * 86_400_000).toISOString() },
  );
}

export async function listNotifications(db: SqlExecutor, userEmail: string, unreadOnly: boolean): Promise<TNotification[]> {
  const rows = await db.all<NotificationRow>(
    `SELECT id, kind, plant_id, title, link, created_at, read_at FROM notifications WHERE user_email = @userEmail ${unreadOnly ? "AND read_at IS NULL" : ""} ORDER BY id DESC LIMIT ${NOTIFICATION_LIMITS.perUser}`,
    { userEmail },
  );
  return rows.map(toNotification);
}

export async function notificationSummary(db: SqlExecutor, userEmail: string): Promise<TNotificationSummary> {
  const row = await db.get<{ unread: number; latest: number | null }>(
    "SELECT count(*) FILTER (WHERE read_at IS NULL) AS unread, max(id) AS latest FROM notifications WHERE user_email = @userEmail",
    { userEmail },
  );
  return { unread: Number(row?.unread ?? 0), latestId: row?.latest == null ? null : Number(row.latest) };
}

/** Marks some (or all) of the user's notifications read; returns how many changed. */
export async function markRead(db: SqlExecutor, userEmail: string, ids: readonly number[] | "all", now: number): Promise<number> {
  const params: Record<string, unknown> = { userEmail, at: new Date(now).toISOString() };
  const which = ids === "all" ? "" : `AND ${db.oneOf("id", "ids", ids, params)}`;
  return (await db.run(`UPDATE notifications SET read_at = @at WHERE user_email = @userEmail AND read_at IS NULL ${which}`, params)).changes;
}

export async function getKinds(db: SqlExecutor, userEmail: string): Promise<TNotificationKind[]> {
  const row = await db.get<{ kinds: string }>("SELECT kinds FROM notification_prefs WHERE user_email = @userEmail", { userEmail });
  return row ? (JSON.parse(row.kinds) as TNotificationKind[]) : [...NOTIFICATION_KINDS];
}

export async function setKinds(db: SqlExecutor, userEmail: string, kinds: readonly TNotificationKind[]): Promise<void> {
  await db.run(
    "INSERT INTO notification_prefs (user_email, kinds) VALUES (@userEmail, @kinds) ON CONFLICT (user_email) DO UPDATE SET kinds = excluded.kinds",
    { userEmail, kinds: JSON.stringify([...new Set(kinds)]) },
  );
}

export async function recordRequester(db: SqlExecutor, plantId: string, taskId: string, requester: string): Promise<void> {
  await db.run(
    "INSERT INTO notification_requests (plant_id, task_id, requester) VALUES (@plantId, @taskId, @requester) ON CONFLICT (plant_id, task_id) DO UPDATE SET requester = excluded.requester",
    { plantId, taskId, requester },
  );
}

export async function requesterOf(db: SqlExecutor, plantId: string, taskId: string): Promise<string | null> {
  return (await db.get<{ requester: string }>("SELECT requester FROM notification_requests WHERE plant_id = @plantId AND task_id = @taskId", { plantId, taskId }))?.requester ?? null;
}
