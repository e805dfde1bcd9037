/**
 * A plant's dashboards (docs/api.md, "Dashboards"): the definition as JSON (modules/boards/contract/boards.ts
 * ZDashboardDefinition), a version that every save raises (the ETag a save must name, so two
 * people editing at once cannot overwrite each other), and the seed a demo board came from, so it
 * is seeded once per plant even when several instances start together or someone deletes it.
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
CREATE TABLE dashboards (
  id          INTEGER PRIMARY KEY,
  plant_id    TEXT NOT NULL,
  title       TEXT NOT NULL,
  definition  TEXT NOT NULL,
  version     INTEGER NOT NULL,
  seed        TEXT,
  created_by  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_by  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  -- a deleted board is kept, so its audit rows still name something and its seed is not repeated
  deleted_at  TEXT
);
CREATE INDEX dashboards_by_plant ON dashboards (plant_id, title, id);
CREATE UNIQUE INDEX dashboards_seed ON dashboards (plant_id, seed) WHERE seed IS NOT NULL;
`;

const migration: Migration = { version: 30, name: "dashboards", sql };

export default migration;
