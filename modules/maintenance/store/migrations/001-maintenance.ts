import type { Migration } from "@/lib/platform/migration";

/**
 * Maintenance data and plant tokens. Dates are `YYYY-MM-DD` text, instants ISO 8601 UTC text; both
 * sort correctly as strings. Decimal hours are kept as the text the API returns.
 */
const migration: Migration = {
  version: 1,
  name: "maintenance",
  sql: `
CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL
);

CREATE TABLE plants (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers(id),
  name TEXT NOT NULL,
  time_zone TEXT NOT NULL
);

CREATE TABLE assets (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  tag_number TEXT NOT NULL,
  serial_number TEXT,
  external_reference TEXT,
  name TEXT NOT NULL,
  asset_type TEXT NOT NULL,
  location TEXT NOT NULL,
  parent_tag_number TEXT,
  manufacturer TEXT,
  model TEXT,
  criticality TEXT NOT NULL CHECK (criticality IN ('A', 'B', 'C')),
  UNIQUE (plant_id, tag_number),
  FOREIGN KEY (plant_id, parent_tag_number) REFERENCES assets(plant_id, tag_number)
);
CREATE INDEX assets_by_serial ON assets (plant_id, serial_number);
CREATE INDEX assets_by_external_reference ON assets (plant_id, external_reference);

CREATE TABLE parts (
  plant_id TEXT NOT NULL REFERENCES plants(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  quantity REAL NOT NULL,
  reorder_point REAL NOT NULL,
  is_short INTEGER NOT NULL,
  remark TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (plant_id, id)
);

CREATE TABLE stock_levels (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  plant_id TEXT NOT NULL,
  part_id TEXT NOT NULL,
  quantity REAL NOT NULL,
  unit TEXT NOT NULL,
  remark TEXT,
  is_short INTEGER NOT NULL,
  submitted_at TEXT NOT NULL,
  FOREIGN KEY (plant_id, part_id) REFERENCES parts(plant_id, id)
);
CREATE INDEX stock_levels_by_part ON stock_levels (plant_id, part_id, submitted_at DESC, seq DESC);

CREATE TABLE jobs_done (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  asset_id TEXT NOT NULL REFERENCES assets(id),
  job_title TEXT NOT NULL,
  done_date TEXT NOT NULL,
  due_date TEXT NOT NULL,
  activity_kind TEXT NOT NULL,
  department TEXT NOT NULL,
  total_time_used_in_hours TEXT NOT NULL,
  required_person_count INTEGER NOT NULL,
  is_final INTEGER NOT NULL,
  work_order_id TEXT NOT NULL,
  work_order_remark TEXT,
  user_firstname TEXT NOT NULL,
  user_lastname TEXT NOT NULL,
  user_username TEXT NOT NULL
);
CREATE INDEX jobs_done_by_date ON jobs_done (plant_id, done_date DESC, id);
CREATE INDEX jobs_done_by_asset ON jobs_done (asset_id);

CREATE TABLE job_parts_used (
  job_id TEXT NOT NULL REFERENCES jobs_done(id),
  line_no INTEGER NOT NULL,
  plant_id TEXT NOT NULL,
  part_id TEXT NOT NULL,
  quantity REAL NOT NULL,
  PRIMARY KEY (job_id, line_no),
  FOREIGN KEY (plant_id, part_id) REFERENCES parts(plant_id, id)
);

CREATE TABLE planned_jobs (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  asset_id TEXT NOT NULL REFERENCES assets(id),
  job_title TEXT NOT NULL,
  due_date TEXT NOT NULL,
  activity_kind TEXT NOT NULL,
  department TEXT NOT NULL,
  estimated_time_in_hours TEXT NOT NULL,
  required_person_count INTEGER NOT NULL,
  recurrence_every INTEGER,
  recurrence_unit TEXT CHECK (recurrence_unit IN ('DAY', 'WEEK', 'MONTH')),
  work_order_id TEXT,
  work_order_remark TEXT
);
CREATE INDEX planned_jobs_by_date ON planned_jobs (plant_id, due_date, id);
CREATE INDEX planned_jobs_by_asset ON planned_jobs (asset_id);

CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  number INTEGER NOT NULL,
  asset_id TEXT NOT NULL REFERENCES assets(id),
  task_title TEXT NOT NULL,
  task_description TEXT,
  activity_kind TEXT NOT NULL,
  assigned_to_role TEXT,
  priority TEXT NOT NULL,
  status TEXT NOT NULL,
  created_date TEXT NOT NULL,
  due_date TEXT,
  incident_date TEXT,
  updated_at TEXT NOT NULL,
  UNIQUE (plant_id, number)
);
CREATE INDEX tasks_by_created ON tasks (plant_id, created_date DESC, id);
CREATE INDEX tasks_by_status ON tasks (plant_id, status);

-- Every status change of a task, creation included (from_status NULL).
CREATE TABLE task_transitions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT NOT NULL REFERENCES tasks(id),
  from_status TEXT,
  to_status TEXT NOT NULL,
  remark TEXT,
  at TEXT NOT NULL
);
CREATE INDEX task_transitions_by_task ON task_transitions (task_id, seq);

-- Results of task creations sent with an Idempotency-Key, replayed on a retry.
CREATE TABLE idempotency_keys (
  plant_id TEXT NOT NULL REFERENCES plants(id),
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response_body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (plant_id, key)
);

-- Company-specific values of activityKind, assignedToRole and priority, per customer.
CREATE TABLE lookup_values (
  customer_id TEXT NOT NULL REFERENCES customers(id),
  kind TEXT NOT NULL CHECK (kind IN ('activityKind', 'assignedToRole', 'priority')),
  value TEXT NOT NULL,
  label TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (customer_id, kind, value)
);

-- Plant-scoped bearer tokens of the maintenance interface: only the SHA-256 of the token is kept.
CREATE TABLE plant_tokens (
  id TEXT PRIMARY KEY,
  plant_id TEXT NOT NULL REFERENCES plants(id),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);
`,
};

export default migration;
