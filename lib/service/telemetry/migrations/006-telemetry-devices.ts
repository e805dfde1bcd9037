import type { Migration } from "../../../platform/migration";

/**
 * The devices that may send telemetry, per plant (docs/telemetry-ingest.md): ingestion refuses a
 * reading from a device that is not listed here. The demo devices are listed at start; an operator
 * adds others with `npm run ops -- device add`.
 */
const migration: Migration = {
  version: 6,
  name: "telemetry-devices",
  sql: `
CREATE TABLE telemetry_devices (
  plant_id TEXT NOT NULL REFERENCES plants(id),
  device_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (plant_id, device_id)
);
`,
};

export default migration;
