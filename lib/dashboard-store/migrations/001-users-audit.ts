/**
 * Dashboard state: users (sign-in and roles), the audit log of writes made through the dashboard,
 * each user's telemetry query history, and small settings the dashboard must keep across restarts
 * (the generated session secret in demo mode).
 */
import { postgresSql, type Migration } from "../../platform/migration";

const sql = `
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name          TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('planner', 'supervisor', 'engineer', 'admin')),
  -- '*' for every plant, else a comma-separated list of plant ids (ids never contain commas)
  plants        TEXT NOT NULL,
  -- bcrypt hash; NULL for a user who signs in with Microsoft Entra ID only
  password_hash TEXT,
  disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);

CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY,
  at          TEXT NOT NULL,
  user_email  TEXT NOT NULL,
  plant_id    TEXT,
  action      TEXT NOT NULL,
  target      TEXT,
  -- 'SUCCESS' or the error code the write ended with
  outcome     TEXT NOT NULL,
  http_status INTEGER NOT NULL,
  -- small JSON object with the write's non-secret parameters (e.g. the transition's target status)
  detail      TEXT
);
CREATE INDEX audit_log_by_time ON audit_log (at DESC, id DESC);

CREATE TABLE query_history (
  id          INTEGER PRIMARY KEY,
  user_email  TEXT NOT NULL COLLATE NOCASE,
  query       TEXT NOT NULL,
  -- JSON array of plant ids, or NULL for the user's default plants
  plant_ids   TEXT,
  start_time  TEXT,
  end_time    TEXT,
  title       TEXT,
  starred     INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1)),
  run_count   INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL,
  last_run_at TEXT NOT NULL,
  UNIQUE (user_email, query)
);
CREATE INDEX query_history_by_user ON query_history (user_email, last_run_at DESC);

CREATE TABLE dashboard_settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

// PostgreSQL has no NOCASE collation; e-mails are stored in lower case and looked up so (users.ts).
const migration: Migration = {
  version: 1,
  name: "users-audit",
  sql,
  postgres: postgresSql({ version: 1, name: "users-audit", sql: sql.replace(/ COLLATE NOCASE/g, "") }),
};

export default migration;
