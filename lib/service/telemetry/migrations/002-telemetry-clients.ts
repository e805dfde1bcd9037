import type { Migration } from "../../../platform/migration";

/**
 * Telemetry OAuth state (docs/api.md §5): the clients of the client-credentials flow, each owned
 * by one customer, with only the SHA-256 of its secret; and the key pair that signs access tokens
 * (kept here so tokens stay valid across restarts and every process of one DATA_DIR agrees).
 */
const migration: Migration = {
  version: 2,
  name: "telemetry-clients",
  sql: `
CREATE TABLE telemetry_clients (
  client_id   TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers(id),
  secret_hash TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
CREATE INDEX telemetry_clients_customer ON telemetry_clients (customer_id);

CREATE TABLE telemetry_signing_keys (
  kid         TEXT PRIMARY KEY,
  algorithm   TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  public_jwk  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
`,
};

export default migration;
