/**
 * The two decoders on their own: Sparkplug B births, aliases, deaths and refusals (payloads made by
 * Tahu's own encoder), and the JSON topic's validation.
 */
import sparkplug from "sparkplug-payload";
import { describe, expect, it } from "vitest";
import { decodeJsonReadings, parseJsonTopic } from "./json-topic";
import { encodeDeviceBirth, encodeDeviceData, parseSparkplugTopic, SparkplugSessions } from "./sparkplug";

const codec = sparkplug.get("spBv1.0")!;
const NOW = Date.parse("2026-03-10T12:00:00.000Z");
const topic = (type: string, device: string | null = "D1") => parseSparkplugTopic(`spBv1.0/RTM1/${type}/edge-1${device ? `/${device}` : ""}`)!;

describe("Sparkplug B decoding", () => {
  it("reads topics, and refuses ones that are not Sparkplug B message topics", () => {
    expect(parseSparkplugTopic("spBv1.0/RTM1/DDATA/edge-1/D1")).toEqual({ groupId: "RTM1", type: "DDATA", edgeNodeId: "edge-1", deviceId: "D1" });
    expect(parseSparkplugTopic("spBv1.0/RTM1/NDATA/edge-1")).toMatchObject({ type: "NDATA", deviceId: null });
    for (const bad of ["spBv1.0/RTM1/DDATA/edge-1", "spBv1.0/RTM1/NDATA/edge-1/D1", "spBv1.0/RTM1/STATE/x", "spAv1.0/RTM1/DDATA/e/d", "spBv1.0/RTM1/DDATA/e/d/x"]) {
      expect(parseSparkplugTopic(bad), bad).toBeNull();
    }
  });

  it("maps aliases to the names and units of the birth, until a death, which makes the data points stale", () => {
    const sessions = new SparkplugSessions();
    const birth = sessions.decode(topic("DBIRTH"), encodeDeviceBirth([{ name: "Temperature", alias: 7, unit: "degC", timestamp: NOW }], NOW, 0), NOW);
    expect(birth).toEqual({ ok: true, readings: [], dropped: {} }); // declared without a value: no reading
    const data = sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 7, value: 71.5, timestamp: NOW - 1000 }], NOW - 500, 1), NOW);
    expect(data).toEqual({
      ok: true,
      dropped: {},
      readings: [
        {
          plantId: "RTM1",
          deviceId: "D1",
          name: "Temperature",
          timestamp: NOW - 1000,
          value: 71.5,
          sentAt: NOW - 500,
          receivedAt: NOW,
          metadata: { data: { Quality: "GOOD", Unit: "degC" }, message: { jobId: "edge-1" } },
        },
      ],
    });
    // The death: a reading without a value, marked stale, for each data point of the birth.
    expect(sessions.decode(topic("DDEATH"), codec.encodePayload({ timestamp: NOW, seq: 2, metrics: [] }), NOW)).toMatchObject({
      ok: true,
      readings: [{ name: "Temperature", value: null, timestamp: NOW, metadata: { data: { Quality: "STALE", Unit: "degC" } } }],
    });
    expect(sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 7, value: 1, timestamp: NOW }], NOW, 3), NOW)).toMatchObject({ readings: [], dropped: { unknown_alias: 1 } });
    // An NDEATH is the Will composed at connect (Tahu stamps it then): the death is dated on arrival,
    // so the stale reading is the newest of the series, after the node's last data.
    sessions.decode(topic("DBIRTH"), encodeDeviceBirth([{ name: "Temperature", alias: 7, unit: "degC", timestamp: NOW }], NOW, 4), NOW);
    const will = codec.encodePayload({ timestamp: NOW - 3_600_000, metrics: [{ name: "bdSeq", type: "UInt64", value: 0 }] });
    expect(sessions.decode(topic("NDEATH", null), will, NOW + 60_000)).toMatchObject({
      ok: true,
      readings: [{ deviceId: "D1", name: "Temperature", value: null, timestamp: NOW + 60_000, metadata: { data: { Quality: "STALE" } } }],
    });
  });

  it("asks for a rebirth on data before a birth, an alias no birth named, and a sequence gap not filled in time", () => {
    const sessions = new SparkplugSessions();
    const at = Date.now();
    const nbirth = (seq: number) => codec.encodePayload({ timestamp: at, seq, metrics: [{ name: "bdSeq", type: "Int64", value: 0 }] });
    sessions.decode(topic("DDATA", "D9"), encodeDeviceData([{ alias: 1, value: 1, timestamp: at }], at, 5), at);
    expect(sessions.rebirthsDue(at)).toEqual([{ groupId: "RTM1", edgeNodeId: "edge-1", reason: "DDATA before a birth of D9" }]);
    expect(sessions.rebirthsDue(at + 1000)).toEqual([]); // asked already

    sessions.decode(topic("NBIRTH", null), nbirth(0), at);
    sessions.decode(topic("DBIRTH"), encodeDeviceBirth([{ name: "Flow", alias: 1, timestamp: at }], at, 1), at);
    sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 2, value: 1, timestamp: at }], at, 2), at);
    expect(sessions.rebirthsDue(at + 2_000)).toEqual([]); // wanted, but within REBIRTH_MIN_INTERVAL_MS of the last request
    expect(sessions.rebirthsDue(at + 6_000)).toEqual([{ groupId: "RTM1", edgeNodeId: "edge-1", reason: "alias 2 of D1 is not in its birth" }]);

    // Sequence 3 is skipped: a gap; 3 arriving late closes it, a gap left open asks for a rebirth after the reorder timeout.
    sessions.decode(topic("NBIRTH", null), nbirth(0), at);
    sessions.decode(topic("DBIRTH"), encodeDeviceBirth([{ name: "Flow", alias: 1, timestamp: at }], at, 1), at);
    sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 1, value: 1, timestamp: at }], at, 2), at);
    sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 1, value: 1, timestamp: at + 1 }], at, 4), at);
    sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 1, value: 1, timestamp: at + 2 }], at, 3), at);
    expect(sessions.rebirthsDue(Date.now() + 20_000)).toEqual([]);
    sessions.decode(topic("DDATA"), encodeDeviceData([{ alias: 1, value: 1, timestamp: at + 3 }], at, 9), at);
    expect(sessions.rebirthsDue(Date.now() + 60_000)).toEqual([{ groupId: "RTM1", edgeNodeId: "edge-1", reason: "sequence number 5 did not arrive" }]);
  });

  it("takes numbers and booleans, skips bookkeeping metrics, and counts what it refuses", () => {
    const sessions = new SparkplugSessions();
    const payload = codec.encodePayload({
      timestamp: NOW,
      metrics: [
        { name: "bdSeq", type: "Int64", value: 3 },
        { name: "Node Control/Rebirth", type: "Boolean", value: false },
        { name: "Count", type: "Int64", value: 12, timestamp: NOW },
        { name: "Running", type: "Boolean", value: true, timestamp: NOW },
        { name: "Label", type: "String", value: "hello", timestamp: NOW },
        { name: "Old", type: "Double", value: 1, timestamp: Date.UTC(1999, 0, 1) },
      ],
    });
    const decoded = sessions.decode(topic("NDATA", null), payload, NOW);
    expect(decoded.ok && decoded.readings.map((r) => [r.deviceId, r.name, r.value])).toEqual([
      ["edge-1", "Count", 12],
      ["edge-1", "Running", 1],
    ]);
    expect(decoded.ok && decoded.dropped).toEqual({ non_numeric_value: 1, invalid_timestamp: 1 });
    expect(sessions.decode(topic("DDATA"), Buffer.from("{not protobuf"), NOW)).toMatchObject({ ok: false, reason: "malformed_payload" });
  });
});

describe("JSON topic decoding", () => {
  const target = parseJsonTopic("plantdesk/v1/RTM1/PUMP-7")!;
  const decode = (body: unknown) => decodeJsonReadings(target, Buffer.from(typeof body === "string" ? body : JSON.stringify(body)), NOW);

  it("reads the topic", () => {
    expect(target).toEqual({ plantId: "RTM1", deviceId: "PUMP-7" });
    expect(parseJsonTopic("plantdesk/v1/RTM1")).toBeNull();
    expect(parseJsonTopic("plantdesk/v2/RTM1/X")).toBeNull();
  });

  it("takes one reading or a list, with ISO or epoch timestamps and metadata", () => {
    expect(decode({ name: "Flow", value: 3.5 })).toMatchObject({ ok: true, readings: [{ name: "Flow", value: 3.5, timestamp: NOW, metadata: null }] });
    const list = decode([
      { name: "Flow", value: true, timestamp: "2026-03-10T11:59:00+01:00" },
      { name: "Flow", value: null, timestamp: NOW - 5, metadata: { DataMetadata: { Unit: "m3/h" } } },
    ]);
    expect(list.ok && list.readings.map((r) => [r.value, r.timestamp, r.metadata])).toEqual([
      [1, Date.parse("2026-03-10T10:59:00Z"), null],
      [null, NOW - 5, { data: { Unit: "m3/h" }, message: undefined }],
    ]);
  });

  it("refuses the whole message when anything in it is wrong", () => {
    for (const bad of ["{", [], { name: "", value: 1 }, { name: "x", value: "1" }, { name: "x", value: 1, extra: 1 }, { name: "x", value: 1, metadata: { Other: {} } }]) {
      expect(decode(bad), JSON.stringify(bad)).toMatchObject({ ok: false, reason: "malformed_payload" });
    }
    expect(decode({ name: "x", value: 1, timestamp: NOW + 2 * 86_400_000 })).toMatchObject({ ok: false, reason: "out_of_window" });
    expect(decode({ name: "x", value: 1, timestamp: NOW - 8 * 86_400_000 })).toMatchObject({ ok: false, reason: "out_of_window" });
    expect(decode({ name: "x", value: 1, timestamp: Date.UTC(1999, 0, 1) })).toMatchObject({ ok: false, reason: "invalid_timestamp" });
    // The window is configurable (INGEST_TIMESTAMP_MAX_AGE_HOURS / _MAX_AHEAD_MINUTES).
    const wide = decodeJsonReadings(target, Buffer.from(JSON.stringify({ name: "x", value: 1, timestamp: NOW - 8 * 86_400_000 })), NOW, { pastMs: 30 * 86_400_000, futureMs: 0 });
    expect(wide).toMatchObject({ ok: true });
  });
});
