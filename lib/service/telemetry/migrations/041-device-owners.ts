import type { Migration } from "../../../platform/migration";

/**
 * Each listed device belongs to one edge node (docs/telemetry-ingest.md, "Device ownership"):
 * `edge_node_id` is set by `npm run ops -- device add --node`, by the demo's own collector job, or
 * by the first DBIRTH of the device (`claimed_by` says which: `ops`, `demo` or `birth`). NULL: not
 * yet claimed. Ingestion drops a message for the device from any other node.
 */
const migration: Migration = {
  version: 41,
  name: "device-owners",
  sql: `
ALTER TABLE telemetry_devices ADD COLUMN edge_node_id TEXT;
ALTER TABLE telemetry_devices ADD COLUMN claimed_by TEXT;
ALTER TABLE telemetry_devices ADD COLUMN claimed_at TEXT;
`,
};

export default migration;
