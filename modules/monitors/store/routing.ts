/**
 * The rows of contact points and routing (docs/api.md, "Contact points and routing"): each plant's
 * contact points, its routing policy, and the outbox whose lines wait to go out as one message per
 * contact point. What is routed where lives in ../service/routing.ts; this module only keeps rows.
 */
import type { SqlExecutor } from "@/lib/platform/sql";
import { DEFAULT_POLICY, ZNotificationPolicy, type TContactPoint, type TContactPointInput, type TNotificationPolicy } from "@/modules/monitors/contract/routing";
import type { TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";

/** A contact point as the sender needs it (the webhook URL included: server only). */
export interface StoredContactPoint {
  id: number;
  plantId: string;
  name: string;
  emails: string[];
  webhookUrl: string | null;
  lastSentAt: string | null;
  lastError: string | null;
  updatedBy: string;
  updatedAt: string;
}

interface ContactPointRow {
  id: number;
  plant_id: string;
  name: string;
  emails: string;
  webhook_url: string | null;
  last_sent_at: string | null;
  last_error: string | null;
  updated_by: string;
  updated_at: string;
}

function toContactPoint(row: ContactPointRow): StoredContactPoint {
  return {
    id: Number(row.id),
    plantId: row.plant_id,
    name: row.name,
    emails: JSON.parse(row.emails) as string[],
    webhookUrl: row.webhook_url,
    lastSentAt: row.last_sent_at,
    lastError: row.last_error,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
}

/** The contact point as `/api/` shows it; the webhook URL (a secret of the chat workspace) only to admins. */
export function describeContactPoint(point: StoredContactPoint, showWebhook: boolean): TContactPoint {
  const { webhookUrl, ...rest } = point;
  return { ...rest, ...(showWebhook ? { webhookUrl } : {}), webhookConfigured: webhookUrl !== null };
}

export async function listContactPoints(db: SqlExecutor, plantId: string): Promise<StoredContactPoint[]> {
  return (await db.all<ContactPointRow>("SELECT * FROM contact_points WHERE plant_id = @plantId ORDER BY name, id", { plantId })).map(toContactPoint);
}

export async function getContactPoint(db: SqlExecutor, plantId: string, id: number): Promise<StoredContactPoint | null> {
  const row = await db.get<ContactPointRow>("SELECT * FROM contact_points WHERE plant_id = @plantId AND id = @id", { plantId, id });
  return row ? toContactPoint(row) : null;
}

export async function contactPointByName(db: SqlExecutor, plantId: string, name: string): Promise<StoredContactPoint | null> {
  const row = await db.get<ContactPointRow>("SELECT * FROM contact_points WHERE plant_id = @plantId AND name = @name", { plantId, name });
  return row ? toContactPoint(row) : null;
}

export async function createContactPoint(db: SqlExecutor, plantId: string, input: TContactPointInput, by: string, now = Date.now()): Promise<StoredContactPoint> {
  const row = await db.get<ContactPointRow>(
    `INSERT INTO contact_points (plant_id, name, emails, webhook_url, updated_by, updated_at)
     VALUES (@plantId, @name, @emails, @webhookUrl, @by, @at) RETURNING *`,
    { plantId, name: input.name, emails: JSON.stringify(input.emails), webhookUrl: input.webhookUrl ?? null, by, at: new Date(now).toISOString() },
  );
  return toContactPoint(row!);
}

/** `webhookUrl` undefined keeps the stored one. */
export async function replaceContactPoint(db: SqlExecutor, plantId: string, id: number, input: TContactPointInput, by: string, now = Date.now()): Promise<StoredContactPoint | null> {
  const row = await db.get<ContactPointRow>(
    `UPDATE contact_points SET name = @name, emails = @emails,
       webhook_url = CASE WHEN @setWebhookUrl = 1 THEN CAST(@webhookUrl AS TEXT) ELSE webhook_url END, updated_by = @by, updated_at = @at
     WHERE plant_id = @plantId AND id = @id RETURNING *`,
    {
      plantId,
      id,
      name: input.name,
      emails: JSON.stringify(input.emails),
      setWebhookUrl: input.webhookUrl === undefined ? 0 : 1,
      webhookUrl: input.webhookUrl ?? null,
      by,
      at: new Date(now).toISOString(),
    },
  );
  return row ? toContactPoint(row) : null;
}

export async function deleteContactPoint(db: SqlExecutor, plantId: string, id: number): Promise<boolean> {
  return (await db.run("DELETE FROM contact_points WHERE plant_id = @plantId AND id = @id", { plantId, id })).changes > 0;
}

export async function countContactPoints(db: SqlExecutor, plantId: string): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM contact_points WHERE plant_id = @plantId", { plantId }))!.n);
}

export async function getPolicy(db: SqlExecutor, plantId: string): Promise<TNotificationPolicy> {
  const row = await db.get<{ policy: string }>("SELECT policy FROM notification_policies WHERE plant_id = @plantId", { plantId });
  return row ? ZNotificationPolicy.parse(JSON.parse(row.policy)) : DEFAULT_POLICY;
}

export async function savePolicy(db: SqlExecutor, plantId: string, policy: TNotificationPolicy, by: string, now = Date.now()): Promise<void> {
  await db.run(
    `INSERT INTO notification_policies (plant_id, policy, updated_by, updated_at) VALUES (@plantId, @policy, @by, @at)
     ON CONFLICT (plant_id) DO UPDATE SET policy = excluded.policy, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    { plantId, policy: JSON.stringify(policy), by, at: new Date(now).toISOString() },
  );
}

interface OutboxLine {
  plantId: string;
  contactPointId: number;
  monitorId: number;
  severity: TMonitorSeverity;
  line: string;
}

/**
 * Queues a line for its contact point: it joins the group already waiting for that contact point
 * (same due time), else starts one due `groupMs` from now.
 */
export async function enqueueLine(db: SqlExecutor, line: OutboxLine, groupMs: number, now: number): Promise<void> {
  await db.run(
    `INSERT INTO notification_outbox (plant_id, contact_point_id, monitor_id, severity, line, created_at, due_at)
     VALUES (@plantId, @contactPointId, @monitorId, @severity, @line, @at,
       COALESCE((SELECT min(due_at) FROM notification_outbox WHERE contact_point_id = @contactPointId AND batch IS NULL), @due))`,
    { ...line, at: new Date(now).toISOString(), due: new Date(now + groupMs).toISOString() },
  );
}

/** Contact points whose waiting group is due at `now` (at most `limit`). */
export async function dueContactPoints(db: SqlExecutor, now: number, limit: number): Promise<{ plantId: string; contactPointId: number }[]> {
  const rows = await db.all<{ plant_id: string; contact_point_id: number }>(
    `SELECT DISTINCT plant_id, contact_point_id FROM notification_outbox WHERE batch IS NULL AND due_at <= @now ORDER BY contact_point_id LIMIT ${Math.trunc(limit)}`,
    { now: new Date(now).toISOString() },
  );
  return rows.map((row) => ({ plantId: row.plant_id, contactPointId: Number(row.contact_point_id) }));
}

export interface ClaimedLine {
  monitorId: number;
  severity: TMonitorSeverity;
  line: string;
}

/** Claims every waiting line of a contact point under `batch` (one instance wins each line) and returns them in order. */
export async function claimGroup(db: SqlExecutor, contactPointId: number, batch: string): Promise<ClaimedLine[]> {
  await db.run("UPDATE notification_outbox SET batch = @batch WHERE contact_point_id = @contactPointId AND batch IS NULL", { batch, contactPointId });
  const rows = await db.all<{ monitor_id: number; severity: string; line: string }>("SELECT monitor_id, severity, line FROM notification_outbox WHERE batch = @batch ORDER BY id", { batch });
  return rows.map((row) => ({ monitorId: Number(row.monitor_id), severity: row.severity as TMonitorSeverity, line: row.line }));
}

/** Records a group's fate on its lines and on its contact point; sent lines older than `keepMs` go. */
export async function recordGroup(db: SqlExecutor, contactPointId: number, batch: string, error: string | null, now: number, keepMs: number): Promise<void> {
  const at = new Date(now).toISOString();
  await db.run("UPDATE notification_outbox SET sent_at = @at WHERE batch = @batch", { batch, at });
  await db.run(
    "UPDATE contact_points SET last_sent_at = CASE WHEN CAST(@error AS TEXT) IS NULL THEN CAST(@at AS TEXT) ELSE last_sent_at END, last_error = CAST(@error AS TEXT) WHERE id = @contactPointId",
    { contactPointId, error, at },
  );
  await db.run("DELETE FROM notification_outbox WHERE sent_at IS NOT NULL AND sent_at < @cutoff", { cutoff: new Date(now - keepMs).toISOString() });
}
