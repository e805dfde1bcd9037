/**
 * Ingestion counters, and the status file the server writes them to so that
 * `npm run ops -- ingest status` can read them while the server runs (the operator CLI never opens
 * the DuckDB files or talks to the server process). The file is `DATA_DIR/ingest-status.json`,
 * replaced atomically (write + rename) every STATUS_INTERVAL_MS; a file older than a few intervals
 * means the server (or its ingestion) is not running (docs/telemetry-ingest.md, "Operating it").
 */
import fs from "node:fs";
import path from "node:path";

const STATUS_FILE = "ingest-status.json";
export const STATUS_INTERVAL_MS = 2_000;

/** Why a message or a reading was dropped; each is counted and logged once. */
export type DropReason =
  | "malformed_topic"
  | "malformed_payload"
  | "unknown_plant"
  | "unknown_device"
  | "foreign_device"
  | "unclaimed_device"
  | "out_of_window"
  | "too_large"
  | "unknown_alias"
  | "non_numeric_value"
  | "invalid_timestamp"
  | "duplicate"
  | "series_limit"
  | "write_failed";

export interface IngestStats {
  messagesReceived: number;
  readingsReceived: number;
  readingsWritten: number;
  /** Messages dropped whole (bad topic or payload, unknown plant or device). */
  droppedMessages: Partial<Record<DropReason, number>>;
  /** Single readings dropped from a message that was otherwise taken. */
  droppedReadings: Partial<Record<DropReason, number>>;
  batches: number;
  queued: number;
  /** Times ingestion stopped reading from the broker because the queue was full. */
  pauses: number;
  /** NCMD `Node Control/Rebirth` requests sent to edge nodes (Sparkplug primary host). */
  rebirthRequests: number;
  /** Receive → commit of the last batch's oldest reading (ms). */
  lastBatchLagMs: number | null;
  /** Newest reading timestamp written. */
  lastReadingAt: string | null;
  lastWriteAt: string | null;
}

export interface IngestStatus extends IngestStats {
  updatedAt: string;
  pid: number;
  /** How long the oldest queued reading has waited (ms): the lag right now. */
  oldestQueuedMs: number;
  mqtt: { broker: string; clientId: string; connected: boolean; reconnects: number } | null;
  demo: { live: boolean; publish: "direct" | "mqtt"; untilMinute?: number } | null;
}

export function emptyStats(): IngestStats {
  return {
    messagesReceived: 0,
    readingsReceived: 0,
    readingsWritten: 0,
    droppedMessages: {},
    droppedReadings: {},
    batches: 0,
    queued: 0,
    pauses: 0,
    rebirthRequests: 0,
    lastBatchLagMs: null,
    lastReadingAt: null,
    lastWriteAt: null,
  };
}

export function statusFile(dataDir: string): string {
  return path.join(dataDir, STATUS_FILE);
}

/** Replaces the status file atomically: a reader sees the old or the new one, never half. */
export function writeStatusFile(dataDir: string, status: IngestStatus): void {
  const target = statusFile(dataDir);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(status, null, 2));
  fs.renameSync(temporary, target);
}

export function readStatusFile(dataDir: string): IngestStatus | null {
  try {
    return JSON.parse(fs.readFileSync(statusFile(dataDir), "utf8")) as IngestStatus;
  } catch {
    return null;
  }
}

/** A broker URL without user, password or query, for logs and the status file. */
export function brokerLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "(invalid URL)";
  }
}
