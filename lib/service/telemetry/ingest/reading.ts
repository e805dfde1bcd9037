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

/** Readings before this are refused whatever the window (`invalid_timestamp`). */
const EARLIEST_TIMESTAMP = Date.UTC(2000, 0, 1);

/**
 * How far a reading's timestamp may lie before and after its arrival (INGEST_TIMESTAMP_MAX_AGE_HOURS,
 * INGEST_TIMESTAMP_MAX_AHEAD_MINUTES): outside it the reading is dropped and counted as
 * `out_of_window`, so a node cannot backdate or pre-date history (docs/telemetry-ingest.md).
 */
export interface TimestampWindow {
  pastMs: number;
  futureMs: number;
}

export const DEFAULT_TIMESTAMP_WINDOW: TimestampWindow = { pastMs: 7 * 86_400_000, futureMs: 10 * 60_000 };

/** Why a timestamp is refused, or null when it is taken. */
export function timestampRefusal(timestamp: number, receivedAt: number, window: TimestampWindow): "invalid_timestamp" | "out_of_window" | null {
  if (!Number.isFinite(timestamp) || timestamp < EARLIEST_TIMESTAMP) return "invalid_timestamp";
  if (timestamp < receivedAt - window.pastMs || timestamp > receivedAt + window.futureMs) return "out_of_window";
  return null;
}

export const MAX_NAME_LENGTH = 200;
