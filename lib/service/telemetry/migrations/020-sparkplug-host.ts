import type { Migration } from "../../../platform/migration";

/**
 * What the Sparkplug primary host must remember across a restart and a failover to another
 * instance (docs/telemetry-ingest.md, "Primary host"): each edge node's and device's last birth
 * (aliases, names, metadata) and each edge node's next sequence number. Kept in the service's
 * database, so every instance sharing it (PostgreSQL) takes over where the last holder stopped.
 * `telemetry_demo_claims`: which instance writes a window of the live demo into ClickHouse, so
 * with several instances each minute is written once.
 */
const migration: Migration = {
  version: 20,
  name: "sparkplug-host",
  sql: `
CREATE TABLE sparkplug_births (
  session_key TEXT PRIMARY KEY,
  metrics TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE sparkplug_sequences (
  node_key TEXT PRIMARY KEY,
  next_seq INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE telemetry_demo_claims (
  customer_id TEXT NOT NULL,
  from_minute BIGINT NOT NULL,
  to_minute BIGINT NOT NULL,
  claimed_by TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  PRIMARY KEY (customer_id, from_minute)
);
`,
};

export default migration;
