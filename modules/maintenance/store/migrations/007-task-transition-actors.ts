import type { Migration } from "@/lib/platform/migration";

/**
 * Who moved a task (docs/api.md §3, task history): `by` is whom the caller acted for, as it named
 * them (the dashboard names its signed-in user), else the caller itself; `client` is the
 * authenticated caller (a plant token's id, or `dashboard` for the embedded dashboard). Rows written
 * before this migration keep both NULL: that history did not record them.
 */
const migration: Migration = {
  version: 7,
  name: "task-transition-actors",
  sql: `
ALTER TABLE task_transitions ADD COLUMN by_name TEXT;
ALTER TABLE task_transitions ADD COLUMN client_id TEXT;
`,
};

export default migration;
