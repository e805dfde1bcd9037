/**
 * Every SQLite migration, one module per domain. Add yours as one line; versions must be unique
 * and are applied in ascending order.
 */
import maintenance from "./001-maintenance";
import telemetryClients from "./002-telemetry-clients";
import usersAudit from "./003-users-audit";
import telemetryClientLabels from "./004-telemetry-client-labels";
import type { Migration } from "./types";

export type { Migration } from "./types";

export const MIGRATIONS: readonly Migration[] = [maintenance, telemetryClients, usersAudit, telemetryClientLabels];
