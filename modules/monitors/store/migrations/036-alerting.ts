/**
 * Alerting (docs/api.md, "Monitors"): a monitor's severity (critical, warning, info) and its mute
 * windows (JSON: one-off and weekly windows, modules/monitors/contract/mute-windows.ts). Existing monitors are
 * warnings with no mute window.
 */
import type { Migration } from "@/lib/platform/migration";

const sql = `
ALTER TABLE monitors ADD COLUMN severity TEXT NOT NULL DEFAULT 'warning';
ALTER TABLE monitors ADD COLUMN mutes TEXT NOT NULL DEFAULT '[]';
`;

const migration: Migration = { version: 36, name: "alerting", sql };

export default migration;
