import type { Migration } from "@/lib/platform/migration";

/**
 * State of the running demo plant: how far the maintenance demo data has been rolled forward
 * (demo-roll-forward.ts). Kept in SQLite beside the rows it describes, so a day's roll and its
 * marker commit together and a day is never rolled twice.
 */
const migration: Migration = {
  version: 5,
  name: "demo-state",
  sql: `
CREATE TABLE demo_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};

export default migration;
