/**
 * The monitors of each plant, their firings and their schedule claims, in the dashboard's store
 * (SQLite or PostgreSQL through the one SQL interface). What a monitor does lives in ../service;
 * this module only keeps its rows. SQL is the same on both engines.
 */
import type { SqlDb, SqlExecutor } from "@/lib/platform/sql";
import { timespanMs, type TFiring, type TMonitor, type TMonitorInputBody, type TMonitorState, type TMonitorTaskTemplate, type TMuteWindow } from "@/modules/monitors/contract/monitors";
import { mutedAt, type TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";

/** A monitor as the evaluator needs it (the webhook URL included: server only). */
export interface StoredMonitor {
  id: number;
  plantId: string;
  name: string;
  query: string;
  keyColumns: string[];
  every: string;
  everyMs: number;
  lookback: string;
  lookbackMs: number;
  task: TMonitorTaskTemplate;
  emails: string[];
  webhookUrl: string | null;
  enabled: boolean;
  severity: TMonitorSeverity;
  mutes: TMuteWindow[];
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  lastNotifyError: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

interface MonitorRow {
  id: number;
  plant_id: string;
  name: string;
  query: string;
  key_columns: string;
  every: string;
  every_ms: number;
  lookback: string;
  lookback_ms: number;
  task: string;
  emails: string;
  webhook_url: string | null;
  enabled: number;
  severity: string;
  mutes: string;
  next_run_at: string | null;
  last_run_at: string | null;
  last_error: string | null;
  consecutive_failures: number;
  last_notify_error: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

function toMonitor(row: MonitorRow): StoredMonitor {
  return {
    id: Number(row.id),
    plantId: row.plant_id,
    name: row.name,
    query: row.query,
    keyColumns: JSON.parse(row.key_columns) as string[],
    every: row.every,
    everyMs: Number(row.every_ms),
    lookback: row.lookback,
    lookbackMs: Number(row.lookback_ms),
    task: JSON.parse(row.task) as TMonitorTaskTemplate,
    emails: JSON.parse(row.emails) as string[],
    webhookUrl: row.webhook_url,
    enabled: Number(row.enabled) === 1,
    severity: row.severity as TMonitorSeverity,
    mutes: JSON.parse(row.mutes) as TMuteWindow[],
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastError: row.last_error,
    consecutiveFailures: Number(row.consecutive_failures),
    lastNotifyError: row.last_notify_error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The first tick of a schedule after `now`: ticks are multiples of `every` since the epoch, the same on every instance. */
export function nextTick(everyMs: number, now: number): number {
  return (Math.floor(now / everyMs) + 1) * everyMs;
}

/** The monitor as `/api/` shows it; the webhook URL (a secret of the chat workspace) only to admins. */
export function describeMonitor(monitor: StoredMonitor, openFirings: number, showWebhook: boolean, now = Date.now()): TMonitor {
  const state: TMonitorState = !monitor.enabled ? "disabled" : monitor.lastError ? "failing" : openFirings > 0 ? "firing" : "ok";
  return {
    id: monitor.id,
    plantId: monitor.plantId,
    name: monitor.name,
    query: monitor.query,
    keyColumns: monitor.keyColumns,
    every: monitor.every,
    lookback: monitor.lookback,
    task: monitor.task,
    notify: { emails: monitor.emails, ...(showWebhook ? { webhookUrl: monitor.webhookUrl } : {}), webhookConfigured: monitor.webhookUrl !== null },
    enabled: monitor.enabled,
    severity: monitor.severity,
    mutes: monitor.mutes,
    mutedNow: mutedAt(monitor.mutes, now) !== null,
    state,
    openFirings,
    lastRunAt: monitor.lastRunAt,
    nextRunAt: monitor.enabled ? monitor.nextRunAt : null,
    lastError: monitor.lastError,
    consecutiveFailures: monitor.consecutiveFailures,
    lastNotifyError: monitor.lastNotifyError,
    createdBy: monitor.createdBy,
    createdAt: monitor.createdAt,
    updatedAt: monitor.updatedAt,
  };
}

export async function countMonitors(db: SqlExecutor, plantId: string): Promise<number> {
  return Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM monitors WHERE plant_id = @plantId AND deleted_at IS NULL", { plantId }))!.n);
}

export async function listMonitors(db: SqlExecutor, plantId: string): Promise<StoredMonitor[]> {
  const rows = await db.all<MonitorRow>("SELECT * FROM monitors WHERE plant_id = @plantId AND deleted_at IS NULL ORDER BY name, id", { plantId });
  return rows.map(toMonitor);
}

export async function getMonitor(db: SqlExecutor, plantId: string, id: number): Promise<StoredMonitor | null> {
  const row = await db.get<MonitorRow>("SELECT * FROM monitors WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL", { plantId, id });
  return row ? toMonitor(row) : null;
}

/** Open firings per monitor of a plant. */
export async function openFiringCounts(db: SqlExecutor, plantId: string): Promise<Map<number, number>> {
  const rows = await db.all<{ monitor_id: number; n: number }>(
    "SELECT monitor_id, count(*) AS n FROM monitor_firings WHERE plant_id = @plantId AND resolved_at IS NULL AND task_id IS NOT NULL GROUP BY monitor_id",
    { plantId },
  );
  return new Map(rows.map((row) => [Number(row.monitor_id), Number(row.n)]));
}

export async function createMonitor(db: SqlExecutor, plantId: string, input: TMonitorInputBody, createdBy: string, now = Date.now()): Promise<StoredMonitor> {
  const at = new Date(now).toISOString();
  const everyMs = timespanMs(input.every)!;
  const row = await db.get<MonitorRow>(
    `INSERT INTO monitors (plant_id, name, query, key_columns, every, every_ms, lookback, lookback_ms, task, emails, severity, mutes, webhook_url, enabled,
       next_run_at, created_by, created_at, updated_at)
     VALUES (@plantId, @name, @query, @keyColumns, @every, @everyMs, @lookback, @lookbackMs, @task, @emails, @severity, @mutes, @webhookUrl, @enabled,
       @nextRunAt, @createdBy, @at, @at) RETURNING *`,
    {
      plantId,
      ...definitionValues(input),
      webhookUrl: input.notify?.webhookUrl ?? null,
      enabled: input.enabled ? 1 : 0,
      nextRunAt: new Date(nextTick(everyMs, now)).toISOString(),
      createdBy,
      at,
    },
  );
  return toMonitor(row!);
}

/** The definition's columns, as both writes name them: @name … @emails, @severity, @mutes. */
function definitionValues(input: TMonitorInputBody): Record<string, string | number> {
  return {
    name: input.name,
    query: input.query,
    keyColumns: JSON.stringify(input.keyColumns),
    every: input.every,
    everyMs: timespanMs(input.every)!,
    lookback: input.lookback,
    lookbackMs: timespanMs(input.lookback)!,
    task: JSON.stringify(input.task),
    emails: JSON.stringify(input.notify?.emails ?? []),
    severity: input.severity ?? "warning",
    mutes: JSON.stringify(input.mutes ?? []),
  };
}

/**
 * Replaces a monitor's definition; its firings stay (a tightened threshold resolves them at the
 * next run). `webhookUrl` undefined keeps the stored one. A changed schedule starts at its next tick,
 * and a changed definition clears the failure backoff. With `author`, whoever saved it becomes its
 * author: it acts as them from now on (a paused monitor is taken over this way).
 */
export async function replaceMonitor(db: SqlExecutor, plantId: string, id: number, input: TMonitorInputBody, now = Date.now(), author?: string): Promise<StoredMonitor | null> {
  const everyMs = timespanMs(input.every)!;
  const row = await db.get<MonitorRow>(
    `UPDATE monitors SET name = @name, query = @query, key_columns = @keyColumns, every = @every, every_ms = @everyMs, lookback = @lookback,
       lookback_ms = @lookbackMs, task = @task, emails = @emails, severity = @severity, mutes = @mutes,
       webhook_url = CASE WHEN @setWebhookUrl = 1 THEN CAST(@webhookUrl AS TEXT) ELSE webhook_url END, enabled = @enabled,
       next_run_at = @nextRunAt, last_error = NULL, consecutive_failures = 0, updated_at = @now,
       created_by = COALESCE(CAST(@author AS TEXT), created_by)
     WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL RETURNING *`,
    {
      ...definitionValues(input),
      setWebhookUrl: input.notify?.webhookUrl === undefined ? 0 : 1,
      webhookUrl: input.notify?.webhookUrl ?? null,
      enabled: input.enabled ? 1 : 0,
      nextRunAt: new Date(nextTick(everyMs, now)).toISOString(),
      now: new Date(now).toISOString(),
      author: author ?? null,
      plantId,
      id,
    },
  );
  return row ? toMonitor(row) : null;
}

export async function deleteMonitor(db: SqlExecutor, plantId: string, id: number, now = Date.now()): Promise<boolean> {
  const at = new Date(now).toISOString();
  const { changes } = await db.run("UPDATE monitors SET deleted_at = @at, enabled = 0, updated_at = @at WHERE plant_id = @plantId AND id = @id AND deleted_at IS NULL", {
    at,
    plantId,
    id,
  });
  return changes === 1;
}

/** Enabled monitors whose next run is due at `now`. */
export async function dueMonitors(db: SqlExecutor, now: number, limit: number): Promise<StoredMonitor[]> {
  const rows = await db.all<MonitorRow>(
    "SELECT * FROM monitors WHERE enabled = 1 AND deleted_at IS NULL AND next_run_at <= @now ORDER BY next_run_at, id LIMIT @limit",
    { now: new Date(now).toISOString(), limit },
  );
  return rows.map(toMonitor);
}

/**
 * Takes the evaluation of `monitorId` at `tickAt` for this instance: true for exactly one caller
 * across every instance sharing the store (the primary key decides), false for the others.
 */
export async function claimTick(db: SqlExecutor, monitorId: number, tickAt: string, instance: string, now = Date.now()): Promise<boolean> {
  const { changes } = await db.run(
    "INSERT INTO monitor_claims (monitor_id, tick_at, instance, claimed_at) VALUES (@monitorId, @tickAt, @instance, @now) ON CONFLICT (monitor_id, tick_at) DO NOTHING",
    { monitorId, tickAt, instance, now: new Date(now).toISOString() },
  );
  return changes === 1;
}

/** Claims older than a day decide nothing any more. */
export async function pruneClaims(db: SqlExecutor, now = Date.now()): Promise<void> {
  await db.run("DELETE FROM monitor_claims WHERE claimed_at < @now", { now: new Date(now - 86_400_000).toISOString() });
}

/** The outcome of an evaluation on the monitor: when it ran, when it runs next, and why it failed. */
export async function recordEvaluation(
  db: SqlExecutor,
  id: number,
  outcome: { at: number; nextRunAt: number; error: string | null; notifyError?: string | null },
): Promise<void> {
  await db.run(
    `UPDATE monitors SET last_run_at = @now, next_run_at = @nextRunAt, last_error = @lastError,
       consecutive_failures = CASE WHEN @failed = 1 THEN consecutive_failures + 1 ELSE 0 END,
       last_notify_error = CASE WHEN @setNotifyError = 1 THEN CAST(@notifyError AS TEXT) ELSE last_notify_error END
     WHERE id = @id`,
    {
      now: new Date(outcome.at).toISOString(),
      nextRunAt: new Date(outcome.nextRunAt).toISOString(),
      lastError: outcome.error,
      failed: outcome.error === null ? 0 : 1,
      setNotifyError: outcome.notifyError === undefined ? 0 : 1,
      notifyError: outcome.notifyError ?? null,
      id,
    },
  );
}

// ---- firings ----

export interface StoredFiring {
  id: number;
  monitorId: number;
  keyText: string;
  key: Record<string, unknown>;
  assetTag: string | null;
  openedAt: string;
  resolvedAt: string | null;
  taskId: string | null;
  problem: string | null;
}

interface FiringRow {
  id: number;
  monitor_id: number;
  key_text: string;
  key_json: string;
  asset_tag: string | null;
  opened_at: string;
  resolved_at: string | null;
  task_id: string | null;
  problem: string | null;
  monitor_name?: string;
}

function toFiring(row: FiringRow): StoredFiring {
  return {
    id: Number(row.id),
    monitorId: Number(row.monitor_id),
    keyText: row.key_text,
    key: JSON.parse(row.key_json) as Record<string, unknown>,
    assetTag: row.asset_tag,
    openedAt: row.opened_at,
    resolvedAt: row.resolved_at,
    taskId: row.task_id,
    problem: row.problem,
  };
}

export async function activeFirings(db: SqlExecutor, monitorId: number): Promise<StoredFiring[]> {
  return (await db.all<FiringRow>("SELECT * FROM monitor_firings WHERE monitor_id = @monitorId AND resolved_at IS NULL ORDER BY id", {
    monitorId,
  })).map(toFiring);
}

/** The newest firing of a key that has a task (its task may still be open after the key went away). */
export async function lastFiringWithTask(db: SqlExecutor, monitorId: number, keyText: string): Promise<StoredFiring | null> {
  const row = await db.get<FiringRow>(
    "SELECT * FROM monitor_firings WHERE monitor_id = @monitorId AND key_text = @keyText AND task_id IS NOT NULL ORDER BY id DESC LIMIT 1",
    { monitorId, keyText },
  );
  return row ? toFiring(row) : null;
}

/** A new active firing, or null when another evaluation opened this key first. */
export async function openFiring(
  db: SqlExecutor,
  monitor: { id: number; plantId: string },
  firing: { keyText: string; key: Record<string, unknown>; assetTag: string | null; openedAt: string; taskId: string | null; problem: string | null },
): Promise<StoredFiring | null> {
  const row = await db.get<FiringRow>(
    `INSERT INTO monitor_firings (monitor_id, plant_id, key_text, key_json, asset_tag, opened_at, task_id, problem)
     VALUES (@monitorId, @plantId, @keyText, @keyJson, @assetTag, @openedAt, @taskId, @problem) ON CONFLICT (monitor_id, key_text) WHERE resolved_at IS NULL DO NOTHING RETURNING *`,
    {
      monitorId: monitor.id,
      plantId: monitor.plantId,
      keyText: firing.keyText,
      keyJson: JSON.stringify(firing.key),
      assetTag: firing.assetTag,
      openedAt: firing.openedAt,
      taskId: firing.taskId,
      problem: firing.problem,
    },
  );
  return row ? toFiring(row) : null;
}

export async function setFiringOutcome(db: SqlExecutor, id: number, outcome: { taskId: string | null; problem: string | null; assetTag: string | null }): Promise<void> {
  await db.run("UPDATE monitor_firings SET task_id = @taskId, problem = @problem, asset_tag = @assetTag WHERE id = @id", {
    taskId: outcome.taskId,
    problem: outcome.problem,
    assetTag: outcome.assetTag,
    id,
  });
}

export async function resolveFiring(db: SqlExecutor, id: number, at: string): Promise<boolean> {
  const { changes } = await db.run("UPDATE monitor_firings SET resolved_at = @at WHERE id = @id AND resolved_at IS NULL", { at, id });
  return changes === 1;
}

/** Firing history, newest first, bounded. */
export async function listFirings(
  db: SqlExecutor,
  plantId: string,
  filter: { monitorId?: number; assetTag?: string; taskId?: string },
  limit = 500,
): Promise<TFiring[]> {
  const where = ["f.plant_id = @plantId"];
  if (filter.monitorId !== undefined) where.push("f.monitor_id = @monitorId");
  if (filter.assetTag !== undefined) where.push("f.asset_tag = @assetTag");
  if (filter.taskId !== undefined) where.push("f.task_id = @taskId");
  const rows = await db.all<FiringRow>(
    `SELECT f.*, m.name AS monitor_name FROM monitor_firings f JOIN monitors m ON m.id = f.monitor_id
     WHERE ${where.join(" AND ")} ORDER BY f.opened_at DESC, f.id DESC LIMIT @limit`,
    { plantId, ...filter, limit },
  );
  return rows.map((row) => {
    const firing = toFiring(row);
    return {
      id: firing.id,
      monitorId: firing.monitorId,
      monitorName: row.monitor_name ?? "",
      key: firing.key,
      assetTagNumber: firing.assetTag,
      openedAt: firing.openedAt,
      resolvedAt: firing.resolvedAt,
      taskId: firing.taskId,
      problem: firing.problem,
    };
  });
}

export type { SqlDb };
