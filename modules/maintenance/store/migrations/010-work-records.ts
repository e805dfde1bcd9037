import type { Migration } from "@/lib/platform/migration";

/**
 * From request to record (docs/api.md §3, extensions): a task's assignee and a postponement's
 * asked-for due date; a job-done record's task and its failure, cause and remedy codes (one record
 * per task: the unique index is what makes a close-out's retry unable to write a second one); a
 * part's reorder quantity; who counted a stock level; and three new lookup kinds for the codes.
 * SQLite cannot change a CHECK constraint, so lookup_values is rebuilt there.
 */
const COLUMNS = `
ALTER TABLE tasks ADD COLUMN assignee_username TEXT;
ALTER TABLE tasks ADD COLUMN assignee_firstname TEXT;
ALTER TABLE tasks ADD COLUMN assignee_lastname TEXT;
ALTER TABLE tasks ADD COLUMN proposed_due_date TEXT;
CREATE INDEX tasks_by_assignee ON tasks (plant_id, assignee_username);

ALTER TABLE jobs_done ADD COLUMN task_id TEXT;
ALTER TABLE jobs_done ADD COLUMN failure_code TEXT;
ALTER TABLE jobs_done ADD COLUMN cause_code TEXT;
ALTER TABLE jobs_done ADD COLUMN remedy_code TEXT;
CREATE UNIQUE INDEX jobs_done_by_task ON jobs_done (task_id);

-- Order twice the reorder level when nothing better is known (the seed sets its own).
ALTER TABLE parts ADD COLUMN reorder_quantity REAL;
UPDATE parts SET reorder_quantity = CASE WHEN reorder_point * 2 < 1 THEN 1 ELSE reorder_point * 2 END;

ALTER TABLE stock_levels ADD COLUMN counted_by TEXT;
`;

const KINDS = `('activityKind', 'assignedToRole', 'priority', 'failureCode', 'causeCode', 'remedyCode')`;

const migration: Migration = {
  version: 10,
  name: "work-records",
  sql: `${COLUMNS}
CREATE TABLE lookup_values_new (
  customer_id TEXT NOT NULL REFERENCES customers(id),
  kind TEXT NOT NULL CHECK (kind IN ${KINDS}),
  value TEXT NOT NULL,
  label TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (customer_id, kind, value)
);
INSERT INTO lookup_values_new SELECT customer_id, kind, value, label, position FROM lookup_values;
DROP TABLE lookup_values;
ALTER TABLE lookup_values_new RENAME TO lookup_values;
`,
  postgres: `${COLUMNS.replace(/\bTEXT\b/g, 'TEXT COLLATE "C"').replace(/\bREAL\b/g, "DOUBLE PRECISION")}
ALTER TABLE lookup_values DROP CONSTRAINT lookup_values_kind_check;
ALTER TABLE lookup_values ADD CONSTRAINT lookup_values_kind_check CHECK (kind IN ${KINDS});
`,
};

export default migration;
