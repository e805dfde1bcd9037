/**
 * Contact points and routing (docs/api.md, "Contact points and routing"): each plant's contact
 * points (an e-mail list and/or a webhook), its routing policy (rules as JSON, the default contact
 * point, the grouping wait) and the outbox of lines waiting to go out together as one message per
 * contact point (`batch` claims a group, so one instance sends it whatever the number of instances).
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
CREATE TABLE contact_points (
  id           INTEGER PRIMARY KEY,
  plant_id     TEXT NOT NULL,
  name         TEXT NOT NULL,
  -- JSON array of addresses
  emails       TEXT NOT NULL,
  webhook_url  TEXT,
  last_sent_at TEXT,
  last_error   TEXT,
  updated_by   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX contact_points_by_name ON contact_points (plant_id, name);

CREATE TABLE notification_policies (
  plant_id   TEXT PRIMARY KEY,
  -- JSON of modules/monitors/contract/routing.ts ZNotificationPolicy
  policy     TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE notification_outbox (
  id               INTEGER PRIMARY KEY,
  plant_id         TEXT NOT NULL,
  contact_point_id INTEGER NOT NULL,
  monitor_id       INTEGER NOT NULL,
  severity         TEXT NOT NULL,
  line             TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  -- when its group goes out: the first line's time plus the policy's wait
  due_at           TEXT NOT NULL,
  batch            TEXT,
  sent_at          TEXT
);
CREATE INDEX notification_outbox_waiting ON notification_outbox (due_at) WHERE batch IS NULL;
CREATE INDEX notification_outbox_by_batch ON notification_outbox (batch);
`;

const migration: Migration = { version: 38, name: "routing", sql };

export default migration;
