/**
 * Workspace organisation (docs/boards.md): a plant's board folders, each board's folder, owner and
 * sharing, and the plant's library of saved queries. Boards that existed before stay shared with
 * the whole plant (what every board was) and are owned by whoever created them.
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
CREATE TABLE dashboard_folders (
  id          INTEGER PRIMARY KEY,
  plant_id    TEXT NOT NULL,
  name        TEXT NOT NULL,
  -- the name as compared: two folders of a plant never differ only by case
  name_key    TEXT NOT NULL,
  created_by  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX dashboard_folders_name ON dashboard_folders (plant_id, name_key);

ALTER TABLE dashboards ADD COLUMN folder_id INTEGER;
ALTER TABLE dashboards ADD COLUMN visibility TEXT NOT NULL DEFAULT 'plant';
ALTER TABLE dashboards ADD COLUMN visibility_role TEXT;
ALTER TABLE dashboards ADD COLUMN owner TEXT NOT NULL DEFAULT '';
UPDATE dashboards SET owner = created_by;
CREATE INDEX dashboards_by_folder ON dashboards (plant_id, folder_id);

CREATE TABLE saved_queries (
  id           INTEGER PRIMARY KEY,
  plant_id     TEXT NOT NULL,
  title        TEXT NOT NULL,
  description  TEXT NOT NULL,
  -- a JSON array of lower-case tags
  tags         TEXT NOT NULL,
  query        TEXT NOT NULL,
  owner        TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_by   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  last_run_at  TEXT,
  last_run_by  TEXT
);
CREATE INDEX saved_queries_by_plant ON saved_queries (plant_id, title, id);
`;

const migration: Migration = { version: 42, name: "workspace", sql };

export default migration;
