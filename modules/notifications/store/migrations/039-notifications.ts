/**
 * The notification centre (docs/api.md, "Notifications"): each user's notifications (newest
 * first, at most NOTIFICATION_LIMITS.perUser kept), their chosen kinds, and who asked for what is
 * waiting for a decision (so the decision reaches them).
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
CREATE TABLE notifications (
  id         INTEGER PRIMARY KEY,
  user_email TEXT NOT NULL,
  kind       TEXT NOT NULL,
  plant_id   TEXT NOT NULL,
  title      TEXT NOT NULL,
  link       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  read_at    TEXT
);
CREATE INDEX notifications_by_user ON notifications (user_email, id);

CREATE TABLE notification_prefs (
  user_email TEXT PRIMARY KEY,
  -- JSON array of the kinds the user wants
  kinds      TEXT NOT NULL
);

CREATE TABLE notification_requests (
  plant_id  TEXT NOT NULL,
  task_id   TEXT NOT NULL,
  requester TEXT NOT NULL,
  PRIMARY KEY (plant_id, task_id)
);
`;

const migration: Migration = { version: 39, name: "notifications", sql };

export default migration;
