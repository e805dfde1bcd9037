/**
 * The audit log: one row per write made through the dashboard (and per sign-in attempt), with who,
 * when, which plant, what, on what, and how it ended. Read by admins through `/api/audit`.
 * Rows hold identifiers and outcomes only, never a request body or a credential.
 */
import type { SqlExecutor } from "@/lib/platform/sql";

export interface AuditEntry {
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

export interface AuditRecord {
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
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [new Date().toISOString(),
    bounded(entry.userEmail),
    entry.plantId ? bounded(entry.plantId) : null,
    bounded(entry.action),
    entry.target ? bounded(entry.target) : null,
    bounded(entry.outcome),
    entry.httpStatus,
    boundedDetail(entry.detail)],
  );
}

/** What is known of a write only once it ended. */
export interface AuditSettlement {
  target?: string | null;
  outcome: string;
  httpStatus: number;
  detail?: Record<string, unknown> | null;
}

/** The outcome of a write that has not ended (yet): left as is if the process dies meanwhile. */
export const PENDING = "PENDING";

/**
 * Records a write before it is made, as PENDING (docs/architecture.md, "The audit row of a write"):
 * the audit log (dashboard.sqlite) and the write (the service's database, or a remote service)
 * cannot share one transaction, so a crash between the two leaves a PENDING row — an attempt
 * whose outcome is unknown — rather than a write nobody recorded. Returns the row's id for settleAudit.
 */
export async function beginAudit(db: SqlExecutor, entry: Omit<AuditEntry, "outcome" | "httpStatus">): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?) RETURNING id`,
    [
      new Date().toISOString(),
      bounded(entry.userEmail),
      entry.plantId ? bounded(entry.plantId) : null,
      bounded(entry.action),
      entry.target ? bounded(entry.target) : null,
      PENDING,
      boundedDetail(entry.detail),
    ],
  );
  return Number(row!.id);
}

/** Completes a PENDING row with the write's outcome. */
export async function settleAudit(db: SqlExecutor, id: number, settlement: AuditSettlement): Promise<void> {
  await db.run(
    `UPDATE audit_log SET outcome = ?, http_status = ?, target = coalesce(?, target), detail = coalesce(?, detail) WHERE id = ? AND outcome = ?`,
    [
      bounded(settlement.outcome),
      settlement.httpStatus,
      settlement.target ? bounded(settlement.target) : null,
      boundedDetail(settlement.detail),
      id,
      PENDING,
    ],
  );
}

export interface AuditFilter {
  userEmail?: string;
  plantId?: string;
  action?: string;
  outcome?: string;
  /** Inclusive lower bound, ISO instant or date. */
  from?: string;
  /** Exclusive upper bound, ISO instant or date. */
  to?: string;
}

function whereClause(filter: AuditFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  const add = (sql: string, value: string | undefined) => {
    if (value === undefined || value === "") return;
    parts.push(sql);
    params.push(value);
  };
  add("lower(user_email) = lower(?)", filter.userEmail);
  add("plant_id = ?", filter.plantId);
  add("action = ?", filter.action);
  add("outcome = ?", filter.outcome);
  add("at >= ?", filter.from);
  add("at < ?", filter.to);
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
  const rows = await db.all<AuditRow>(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`, [...params, pageSize, (page - 1) * pageSize]);
  return { data: rows.map(toRecord), page, totalPages: Math.ceil(total / pageSize), pageSize };
}

const CSV_COLUMNS = ["id", "at", "userEmail", "plantId", "action", "target", "outcome", "httpStatus", "detail"] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "object" ? JSON.stringify(value) : String(value);
  // A leading = + - @ would be read as a formula by spreadsheet programs.
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every row matching the filter, newest first, as CSV (RFC 4180, header line first). */
export async function auditCsv(db: SqlExecutor, filter: AuditFilter): Promise<string> {
  const { sql, params } = whereClause(filter);
  const lines = [CSV_COLUMNS.join(",")];
  for (const row of await db.all<AuditRow>(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC`, params)) {
    const record = toRecord(row);
    lines.push(CSV_COLUMNS.map((column) => csvCell(record[column])).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
