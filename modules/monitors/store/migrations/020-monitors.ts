/**
 * Condition monitoring (docs/api.md, "Monitors"): the monitors of each plant, their firings (one row
 * per key from the moment it is returned until it is not, with the task it opened) and the claims
 * that let exactly one instance evaluate a monitor at each tick of its schedule.
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
CREATE TABLE monitors (
  id                   INTEGER PRIMARY KEY,
  plant_id             TEXT NOT NULL,
  name                 TEXT NOT NULL,
  query                TEXT NOT NULL,
  -- JSON array of column names
  key_columns          TEXT NOT NULL,
  every                TEXT NOT NULL,
  every_ms             INTEGER NOT NULL,
  lookback             TEXT NOT NULL,
  lookback_ms          INTEGER NOT NULL,
  -- JSON of the task template (modules/monitors/contract/monitors.ts ZMonitorTaskTemplate)
  task                 TEXT NOT NULL,
  -- JSON array of addresses
  emails               TEXT NOT NULL,
  webhook_url          TEXT,
  enabled              INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  next_run_at          TEXT,
  last_run_at          TEXT,
  last_error           TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_notify_error    TEXT,
  created_by           TEXT NOT NULL,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  -- a deleted monitor is kept for the history of its firings and the tasks that link to it
  deleted_at           TEXT
);
CREATE INDEX monitors_by_plant ON monitors (plant_id, id);
CREATE INDEX monitors_due ON monitors (next_run_at) WHERE enabled = 1 AND deleted_at IS NULL;

CREATE TABLE monitor_firings (
  id          INTEGER PRIMARY KEY,
  monitor_id  INTEGER NOT NULL REFERENCES monitors (id),
  plant_id    TEXT NOT NULL,
  -- the key's values as a JSON array (compared as text) and as an object for display
  key_text    TEXT NOT NULL,
  key_json    TEXT NOT NULL,
  asset_tag   TEXT,
  opened_at   TEXT NOT NULL,
  resolved_at TEXT,
  task_id     TEXT,
  problem     TEXT
);
-- one active firing per key: two evaluations racing (a manual run beside a scheduled one) open one
CREATE UNIQUE INDEX monitor_firings_active ON monitor_firings (monitor_id, key_text) WHERE resolved_at IS NULL;
CREATE INDEX monitor_firings_by_monitor ON monitor_firings (monitor_id, opened_at DESC, id DESC);
CREATE INDEX monitor_firings_by_task ON monitor_firings (plant_id, task_id);
CREATE INDEX monitor_firings_by_asset ON monitor_firings (plant_id, asset_tag, opened_at DESC);

CREATE TABLE monitor_claims (
  monitor_id INTEGER NOT NULL,
  tick_at    TEXT NOT NULL,
  instance   TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  PRIMARY KEY (monitor_id, tick_at)
);
CREATE INDEX monitor_claims_by_time ON monitor_claims (claimed_at);
`;

const migration: Migration = { version: 20, name: "monitors", sql };

export default migration;
