import { postgresSql, type Migration } from "@/lib/platform/migration";

/**
 * A task's attachments (docs/api.md, "Attachments"), bytes and all, in the maintenance database:
 * every instance sharing the database serves every file, and a task's files go where its rows go
 * (backups, `DATABASE_URL`). Files are at most 10 MiB and 50 per task, so a row holds one whole.
 */
const sql = `
CREATE TABLE task_attachments (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  task_id TEXT NOT NULL REFERENCES tasks(id),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  content BLOB NOT NULL
);
CREATE INDEX task_attachments_by_task ON task_attachments (plant_id, task_id, created_at, id);
`;

const migration: Migration = {
  version: 45,
  name: "task-attachments",
  sql,
  // PostgreSQL keeps bytes as BYTEA; the rest is the usual translation.
  postgres: postgresSql({ version: 45, name: "task-attachments", sql }).replace(/\bBLOB\b/g, "BYTEA"),
};

export default migration;
