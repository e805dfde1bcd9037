/** What every decoder turns a message into (docs/telemetry-ingest.md has the mapping per protocol). */
import type { DropReason } from "./stats";

/** Dimensions of a series: merged into `States.DataMetadata` / `MessageMetadata` of its series. */
export interface SeriesMetadata {
  data?: Record<string, string | number | boolean>;
  message?: Record<string, string | number | boolean>;
}

export interface Reading {
  plantId: string;
  deviceId: string;
  /** `States.Name`: the data point. */
  name: string;
  /** `States.Timestamp`, epoch ms: when the value was measured. */
  timestamp: number;
  value: number | null;
  /** When the device or edge node sent it (epoch ms); `AgentTimestamp`. */
  sentAt: number;
  /** When the service received it (epoch ms); `IngestionTimestamp`. */
  receivedAt: number;
  metadata: SeriesMetadata | null;
}

/** A message taken apart: its readings, or why it was refused whole. */
export type Decoded =
  | { ok: true; readings: Reading[]; dropped: Partial<Record<DropReason, number>> }
  | { ok: false; reason: DropReason; detail: string };

/** Readings older than this or later than a day ahead of their arrival are refused. */
export const EARLIEST_TIMESTAMP = Date.UTC(2000, 0, 1);
export const LATEST_AHEAD_MS = 24 * 3_600_000;

export function plausibleTimestamp(timestamp: number, receivedAt: number): boolean {
  return Number.isFinite(timestamp) && timestamp >= EARLIEST_TIMESTAMP && timestamp <= receivedAt + LATEST_AHEAD_MS;
}

export const MAX_NAME_LENGTH = 200;
