/**
 * The audit log: one row per write made through the dashboard (and per sign-in attempt), with who,
 * when, which plant, what, on what, and how it ended. Read by admins through `/api/audit`.
 * Rows hold identifiers and outcomes only, never a request body or a credential.
 */
import type { Database } from "better-sqlite3";

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

export function recordAudit(db: Database, entry: AuditEntry): void {
  db.prepare(
    `INSERT INTO audit_log (at, user_email, plant_id, action, target, outcome, http_status, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    new Date().toISOString(),
    entry.userEmail,
    entry.plantId ?? null,
    entry.action,
    entry.target ?? null,
    entry.outcome,
    entry.httpStatus,
    entry.detail ? JSON.stringify(entry.detail) : null,
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
  add("user_email = ? COLLATE NOCASE", filter.userEmail);
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
export function queryAudit(db: Database, filter: AuditFilter, page: number, pageSize: number) {
  const { sql, params } = whereClause(filter);
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM audit_log ${sql}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...params, pageSize, (page - 1) * pageSize) as AuditRow[];
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
export function auditCsv(db: Database, filter: AuditFilter): string {
  const { sql, params } = whereClause(filter);
  const lines = [CSV_COLUMNS.join(",")];
  const statement = db.prepare(`SELECT * FROM audit_log ${sql} ORDER BY at DESC, id DESC`);
  for (const row of statement.iterate(...params) as Iterable<AuditRow>) {
    const record = toRecord(row);
    lines.push(CSV_COLUMNS.map((column) => csvCell(record[column])).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
