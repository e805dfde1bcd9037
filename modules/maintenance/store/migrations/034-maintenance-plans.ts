import type { Migration } from "@/lib/platform/migration";

/**
 * Maintenance plans (docs/api.md, "Maintenance plans"). `plan_occurrences` is what makes "one task
 * per occurrence" hold across instances: its primary key (plan, occurrence) is inserted in the
 * transaction that creates the task, so a second instance's insert conflicts and its task is rolled
 * back. A planned job written from a plan names it (`planned_jobs.plan_id`); a task opened by a plan
 * carries the plan and the checklist it was opened with; a job record carries the checklist's
 * results and the downtime the close-out gave.
 */
const SQL = `
CREATE TABLE maintenance_plans (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  asset_id TEXT NOT NULL REFERENCES assets(id),
  title TEXT NOT NULL,
  description TEXT,
  activity_kind TEXT NOT NULL,
  assigned_to_role TEXT NOT NULL,
  priority TEXT NOT NULL,
  estimated_time_in_hours REAL NOT NULL,
  required_person_count INTEGER NOT NULL,
  trigger_kind TEXT NOT NULL CHECK (trigger_kind IN ('CALENDAR', 'METER')),
  trigger_every REAL NOT NULL,
  trigger_unit TEXT NOT NULL,
  start_date TEXT,
  meter_query TEXT,
  start_reading REAL,
  lead_time_days INTEGER NOT NULL,
  schedule TEXT NOT NULL CHECK (schedule IN ('FIXED', 'FLOATING')),
  checklist TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  last_reading REAL,
  last_reading_at TEXT,
  rate_per_day REAL,
  anchor_date TEXT,
  anchor_reading REAL,
  created_date TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX maintenance_plans_by_plant ON maintenance_plans (plant_id, id);

CREATE TABLE plan_occurrences (
  plan_id TEXT NOT NULL,
  occurrence TEXT NOT NULL,
  task_id TEXT NOT NULL,
  due_date TEXT,
  due_reading REAL,
  opened_at TEXT NOT NULL,
  PRIMARY KEY (plan_id, occurrence)
);
CREATE UNIQUE INDEX plan_occurrences_by_task ON plan_occurrences (task_id);

ALTER TABLE planned_jobs ADD COLUMN plan_id TEXT;
CREATE INDEX planned_jobs_by_plan ON planned_jobs (plan_id);
ALTER TABLE tasks ADD COLUMN plan_id TEXT;
ALTER TABLE tasks ADD COLUMN checklist TEXT;
ALTER TABLE jobs_done ADD COLUMN checklist_results TEXT;
ALTER TABLE jobs_done ADD COLUMN downtime_hours TEXT;
`;

const migration: Migration = {
  version: 34,
  name: "maintenance-plans",
  sql: SQL,
};

export default migration;
