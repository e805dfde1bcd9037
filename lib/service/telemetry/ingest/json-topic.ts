/**
 * The plain JSON topic for simple devices: `plantdesk/v1/<plantId>/<deviceId>` with one reading
 * `{ name, value, timestamp?, metadata? }` or an array of at most MAX_READINGS of them
 * (docs/telemetry-ingest.md). Validated with zod; a message that does not match is refused whole.
 */
import { z } from "zod";
import { DEFAULT_TIMESTAMP_WINDOW, MAX_NAME_LENGTH, timestampRefusal, type Decoded, type TimestampWindow } from "./reading";

const JSON_TOPIC_PREFIX = "plantdesk/v1";
export const JSON_SUBSCRIPTION = `${JSON_TOPIC_PREFIX}/+/+`;
const MAX_READINGS = 1000;
const MAX_PAYLOAD_BYTES = 1024 * 1024;

const scalar = z.union([z.string().max(1000), z.number().finite(), z.boolean()]);
const dimensions = z.record(z.string().min(1).max(100), scalar).refine((o) => Object.keys(o).length <= 50, "at most 50 keys");

const ZJsonReading = z.strictObject({
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  value: z.union([z.number().finite(), z.boolean(), z.null()]),
  /** ISO 8601 with a zone, or epoch milliseconds; default: when it arrived. */
  timestamp: z.union([z.iso.datetime({ offset: true }), z.number().int()]).optional(),
  metadata: z
    .strictObject({
      DataMetadata: dimensions.optional(),
      MessageMetadata: dimensions.optional(),
    })
    .optional(),
});

const ZJsonMessage = z.union([ZJsonReading, z.array(ZJsonReading).min(1).max(MAX_READINGS)]);

export function parseJsonTopic(topic: string): { plantId: string; deviceId: string } | null {
  const parts = topic.split("/");
  if (parts.length !== 4 || `${parts[0]}/${parts[1]}` !== JSON_TOPIC_PREFIX || !parts[2] || !parts[3]) return null;
  return { plantId: parts[2], deviceId: parts[3] };
}

export function decodeJsonReadings(target: { plantId: string; deviceId: string }, payload: Uint8Array, receivedAt: number, window: TimestampWindow = DEFAULT_TIMESTAMP_WINDOW): Decoded {
  if (payload.byteLength > MAX_PAYLOAD_BYTES) return { ok: false, reason: "too_large", detail: "larger than 1 MB" };
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload).toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed_payload", detail: "not JSON" };
  }
  const parsed = ZJsonMessage.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: "malformed_payload", detail: `${issue?.path.join(".") || "(message)"}: ${issue?.message ?? "invalid"}` };
  }
  const items = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  const readings = [];
  for (const item of items) {
    const timestamp = item.timestamp === undefined ? receivedAt : typeof item.timestamp === "number" ? item.timestamp : Date.parse(item.timestamp);
    const refused = timestampRefusal(timestamp, receivedAt, window);
    if (refused) return { ok: false, reason: refused, detail: `timestamp of '${item.name.slice(0, 64)}'` };
    const value = typeof item.value === "boolean" ? (item.value ? 1 : 0) : item.value;
    const metadata = item.metadata ? { data: item.metadata.DataMetadata, message: item.metadata.MessageMetadata } : null;
    readings.push({ ...target, name: item.name, timestamp, value, sentAt: timestamp, receivedAt, metadata });
  }
  return { ok: true, readings, dropped: {} };
}
