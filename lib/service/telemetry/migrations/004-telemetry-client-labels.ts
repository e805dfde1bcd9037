import type { Migration } from "../../../platform/migration";

/**
 * A label per telemetry client, so a client that the dashboard provisions for itself in embedded
 * mode can be found again and replaced on the next start instead of piling up in `client list`.
 */
const migration: Migration = {
  version: 4,
  name: "telemetry-client-labels",
  sql: `
ALTER TABLE telemetry_clients ADD COLUMN label TEXT;
CREATE INDEX telemetry_clients_label ON telemetry_clients (customer_id, label) WHERE revoked_at IS NULL;
`,
};

export default migration;
