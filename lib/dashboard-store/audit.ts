/**
 * The audit log: one row per write made through the dashboard (and per sign-in attempt), with who,
 * when, which plant, what, on what, and how it ended. Read by admins through `/api/audit`.
 * Rows hold identifiers and outcomes only, never a request body or a credential.
 */
import type { TAuditQuery } from "@/lib/contract/audit";
import { csvCell } from "@/lib/contract/csv";
import { auditActionLabel, auditDetailText, auditOutcomeLabel } from "@/lib/contract/audit-labels";
import { invalidInput } from "@/lib/contract/errors";
import { startOfDay, zonedIso } from "@/lib/contract/time-zone";
import type { SqlExecutor, SqlParams } from "@/lib/platform/sql";

interface AuditEntry {
  userEmail: string;
  plantId?: string | null;
  action: string;
  target?: string | null;
  /** `SUCCESS` or the error code the action ended with. */
  outcome: string;
  httpStatus: number;
  /** Small non-secret parameters, e.g. `{ to: "PENDING" }` for a transition. */
  detail?: Record<string, unknown> | null;
}

interface AuditRecord {
  id: number;
  at: string;
  userEmail: string;
  plantId: string | null;
  action: string;
  target: string | null;
  outcome: string;
  httpStatus: number;
  detail: Record<string, unknown> | null;
}

interface AuditRow {
  id: number;
  at: string;
  user_email: string;
  plant_id: string | null;
  action: string;
  target: string | null;
  outcome: string;
  http_status: number;
  detail: string | null;
}

/** Longest text kept per field: a row is a few hundred bytes whatever a request carried. */
const FIELD_LIMIT = 320;
const DETAIL_LIMIT = 2000;

const bounded = (text: string) => (text.length > FIELD_LIMIT ? `${text.slice(0, FIELD_LIMIT - 1)}…` : text);

function boundedDetail(detail: Record<string, unknown> | null | undefined): string | null {
  if (!detail) return null;
  const text = JSON.stringify(detail);
  return text.length > DETAIL_LIMIT ? JSON.stringify({ truncated: true }) : text;
}

export async function recordAudit(db: SqlExecutor, entry: AuditEntry): Promise<void> {
  await db.run(
    `INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail)
     VALUES (@now, @userEmail, @plantId, @action, @target, @outcome, @httpStatus, @detail)`,
    {
      now: new Date().toISOString(),
      userEmail: bounded(entry.userEmail),
      plantId: entry.plantId ? bounded(entry.plantId) : null,
      action: bounded(entry.action),
      target: entry.target ? bounded(entry.target) : null,
      outcome: bounded(entry.outcome),
      httpStatus: entry.httpStatus,
      detail: boundedDetail(entry.detail),
    },
  );
}

/** The user of an aggregated row of failed sign-ins: nobody signed in. */
export const ANONYMOUS = "(anonymous)";
/** Accounts named per aggregated row (the rest are in its count only), so a row stays small. */
const ACCOUNTS_PER_ROW = 5;
let aggregating: Promise<unknown> = Promise.resolve();

/**
 * A failed sign-in (nobody is signed in): one row per source address, outcome and minute, whose
 * `detail` counts the attempts (`count`) and the first few accounts tried (`accounts`), so a
 * script's thousands of guesses are a handful of rows, not thousands (docs/api.md, "The audit
 * log"). Attempts in this process are added one after another (no count lost); instances sharing
 * PostgreSQL may each open the minute's row.
 */
export function recordFailedSignIn(
  db: SqlExecutor,
  attempt: { address: string; account: string; outcome: string; httpStatus: number },
  now = new Date(),
): Promise<void> {
  const run = async () => {
    const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
    const address = bounded(attempt.address);
    const row = await db.get<{ id: number; detail: string | null }>(
      `SELECT id, detail FROM audit_log WHERE at >= @minute AND action = 'auth.sign-in' AND user_email = @anonymous AND target = @address AND outcome = @outcome ORDER BY id DESC LIMIT 1`,
      { minute, anonymous: ANONYMOUS, address, outcome: attempt.outcome },
    );
    const detail = (row?.detail ? JSON.parse(row.detail) : { count: 0, accounts: {} }) as { count: number; accounts: Record<string, number> };
    const account = attempt.account.slice(0, 254);
    detail.count += 1;
    if (account in detail.accounts || Object.keys(detail.accounts).length < ACCOUNTS_PER_ROW) detail.accounts[account] = (detail.accounts[account] ?? 0) + 1;
    if (row) {
      await db.run(`UPDATE audit_log SET detail = @detail WHERE id = @id`, { detail: boundedDetail(detail), id: row.id });
    } else {
      await db.run(
        `INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail) VALUES (@at, @anonymous, NULL, 'auth.sign-in', @address, @outcome, @httpStatus, @detail)`,
        { at: minute, anonymous: ANONYMOUS, address, outcome: bounded(attempt.outcome), httpStatus: attempt.httpStatus, detail: boundedDetail(detail) },
      );
    }
  };
  const next = aggregating.then(run, run);
  aggregating = next.catch(() => undefined);
  return next;
}

/**
 * Deletes rows older than the retention (AUDIT_RETENTION_DAYS), a bounded batch at a time so a
 * first prune of a large log does not hold the database; returns how many went.
 */
export async function pruneAudit(db: SqlExecutor, retentionDays: number, now = Date.now(), batch = 10_000): Promise<number> {
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  let removed = 0;
  for (;;) {
    const { changes } = await db.run(`DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < @before ORDER BY at LIMIT @batch)`, { before, batch });
    removed += changes;
    if (changes < batch) return removed;
  }
}

/** What is known of a write only once it ended. */
interface AuditSettlement {
  target?: string | null;
  outcome: string;
  httpStatus: number;
  detail?: Record<string, unknown> | null;
}

/** The outcome of a write that has not ended (yet): left as is if the process dies meanwhile. */
const PENDING = "PENDING";

/**
 * Records a write before it is made, as PENDING (docs/architecture.md, "The audit row of a write"):
 * the audit log (dashboard.sqlite) and the write (the service's database, or a remote service)
 * cannot share one transaction, so a crash between the two leaves a PENDING row — an attempt
 * whose outcome is unknown — rather than a write nobody recorded. Returns the row's id for settleAudit.
 */
export async function beginAudit(db: SqlExecutor, entry: Omit<AuditEntry, "outcome" | "httpStatus">): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail)
     VALUES (@now, @userEmail, @plantId, @action, @target, @pending, 0, @detail) RETURNING id`,
    {
      now: new Date().toISOString(),
      userEmail: bounded(entry.userEmail),
      plantId: entry.plantId ? bounded(entry.plantId) : null,
      action: bounded(entry.action),
      target: entry.target ? bounded(entry.target) : null,
      pending: PENDING,
      detail: boundedDetail(entry.detail),
    },
  );
  return Number(row!.id);
}

/** Completes a PENDING row with the write's outcome. */
export async function settleAudit(db: SqlExecutor, id: number, settlement: AuditSettlement): Promise<void> {
  await db.run(
    `UPDATE audit_log SET outcome = @outcome, http_status = @httpStatus, target = coalesce(@target, target), detail = coalesce(@detail, detail) WHERE id = @id AND outcome = @pending`,
    {
      outcome: bounded(settlement.outcome),
      httpStatus: settlement.httpStatus,
      target: settlement.target ? bounded(settlement.target) : null,
      detail: boundedDetail(settlement.detail),
      id,
      pending: PENDING,
    },
  );
}

interface AuditFilter {
  /** Part of the user's e-mail, or of their name (users table), any case. */
  user?: string;
  plantId?: string;
  action?: string;
  outcome?: string;
  /** Inclusive lower bound, ISO instant (UTC, `Z`). */
  from?: string;
  /** Exclusive upper bound, ISO instant (UTC, `Z`). */
  to?: string;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The query's bounds as UTC instants: a day is the reader's day (`tz`), and a last day is included
 * whole (its end is the next day's start); an instant is taken as it is (`to` exclusive).
 */
export function auditFilterOf(query: TAuditQuery): AuditFilter {
  const bound = (value: string | undefined, isEnd: boolean) => {
    if (!value) return undefined;
    if (isDay(value)) return startOfDay(isEnd ? nextDay(value) : value, query.tz);
    return new Date(value).toISOString();
  };
  return {
    user: query.user || undefined,
    plantId: query.plantId || undefined,
    action: query.action || undefined,
    outcome: query.outcome || undefined,
    from: bound(query.from, false),
    to: bound(query.to, true),
  };
}

/** `%`, `_` and the escape itself stand for themselves in a user's search text. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

function whereClause(filter: AuditFilter): { sql: string; params: SqlParams } {
  const parts: string[] = [];
  const params: SqlParams = {};
  const add = (sql: string, name: string, value: string | undefined) => {
    if (value === undefined || value === "") return;
    parts.push(sql);
    params[name] = value;
  };
  if (filter.user) {
    add(
      `(lower(user_email) LIKE @user ESCAPE '\\' OR lower(user_email) IN (SELECT lower(email) FROM users WHERE lower(name) LIKE @user ESCAPE '\\'))`,
      "user",
      likePattern(filter.user),
    );
  }
  add("plant_id = @plantId", "plantId", filter.plantId);
  add("action = @action", "action", filter.action);
  add("outcome = @outcome", "outcome", filter.outcome);
  add("at >= @from", "from", filter.from);
  add("at < @to", "to", filter.to);
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    userEmail: row.user_email,
    plantId: row.plant_id,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    httpStatus: row.http_status,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
  };
}

/** One page of the log, newest first, in the spec's paginated envelope. */
export async function queryAudit(db: SqlExecutor, filter: AuditFilter, page: number, pageSize: number) {
  const { sql, params } = whereClause(filter);
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${sql}`, params))!.n;
  const rows = await db.all<AuditRow>(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`, {
    ...params,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { data: rows.map(toRecord), page, totalPages: Math.ceil(total / pageSize), pageSize };
}

/** At most this many rows in one export: a bigger one is refused with words, never cut short. */
const AUDIT_CSV_MAX_ROWS = 100_000;

/**
 * Every row matching the filter, newest first, as CSV (RFC 4180, header line first) for people:
 * times in the reader's zone with their offset, actions and outcomes in words (as on the page).
 */
export async function auditCsv(db: SqlExecutor, filter: AuditFilter, timeZone: string): Promise<string> {
  const { sql, params } = whereClause(filter);
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${sql}`, params))!.n;
  if (Number(total) > AUDIT_CSV_MAX_ROWS) {
    throw invalidInput(`The export would hold ${total} entries; at most ${AUDIT_CSV_MAX_ROWS} fit in one file. Choose fewer days or another filter.`, [
      { field: "from", problem: `more than ${AUDIT_CSV_MAX_ROWS} entries match` },
    ]);
  }
  const lines = [[`Time (${timeZone})`, "User", "Plant", "Action", "Target", "Outcome", "HTTP status", "Detail", "Entry"].map(csvCell).join(",")];
  for (const row of await db.all<AuditRow>(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC LIMIT @limit`, { ...params, limit: AUDIT_CSV_MAX_ROWS })) {
    const record = toRecord(row);
    lines.push(
      [
        zonedIso(record.at, timeZone),
        record.userEmail,
        record.plantId,
        auditActionLabel(record.action),
        record.target,
        auditOutcomeLabel(record.outcome),
        record.httpStatus || "",
        auditDetailText(record.detail),
        record.id,
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
