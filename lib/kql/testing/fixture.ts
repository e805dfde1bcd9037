/**
 * The small telemetry fixture of the KQL conformance suite (pure data + SQL text; shared by the
 * conformance and property tests). 12 States rows over two plants, 5 Events.
 */
const STATE_ROWS: [string, string, string, number | null, string, object, string][] = [
  ["D1", "temperature", "2026-01-01 00:00:00.000", 20.5, "RTM1", { Unit: "C", Area: "North", Line: "L1", DeviceType: "Sensor" }, "P-101"],
  ["D1", "temperature", "2026-01-01 00:30:00.000", 22, "RTM1", { Unit: "C", Area: "North", Line: "L1", DeviceType: "Sensor" }, "P-101"],
  ["D1", "temperature", "2026-01-01 01:15:00.250", 25.5, "RTM1", { Unit: "C", Area: "North", Line: "L1", DeviceType: "Sensor" }, "P-101"],
  ["D1", "pressure", "2026-01-01 00:00:00.000", 1.2, "RTM1", { Unit: "bar", Area: "North", Line: "L1" }, "P-101"],
  ["D1", "pressure", "2026-01-01 02:00:00.000", null, "RTM1", { Unit: "bar", Area: "North", Line: "L1" }, "P-101"],
  ["D2", "temperature", "2026-01-01 00:10:00.000", 30, "RTM1", { Unit: "C", Area: "South", Line: "L2" }, "M-201"],
  ["D2", "motor-current", "2026-01-01 00:20:00.000", 7, "RTM1", { Unit: "A", Area: "South" }, "M-201"],
  ["D2", "vibration", "2026-01-01 03:00:00.000", -3.5, "RTM1", { Unit: "mm/s", Area: "South" }, "M-201"],
  ["D3", "temperature", "2026-01-02 00:00:00.000", 18, "HOU1", { Unit: "C", Area: "Bay 1" }, "C-301"],
  ["D3", "running", "2026-01-02 00:05:00.000", 1, "HOU1", { Area: "Bay 1" }, "C-301"],
  ["D4", "throughput", "2026-01-02 12:00:00.000", 100, "HOU1", { Unit: "t/h", Area: "Bay 2", Line: "L9" }, "T-401"],
  ["D4", "Temperature", "2026-01-02 12:00:00.999", 19.25, "HOU1", { Unit: "C", Area: "Bay 2" }, "T-401"],
];

const EVENT_ROWS: [string, string, string, string, string, string, string, string | null, number, object, string][] = [
  ["E1", "RTM1", "D1", "HighTemperature", "Critical", "Temperature above 25 C", "2026-01-01 01:15:00", "2026-01-01 01:45:00", 25.5, { Unit: "C", Area: "North" }, "P-101"],
  ["E2", "RTM1", "D2", "HighVibration", "Major", "Vibration high on motor", "2026-01-01 03:00:00", null, -3.5, { Unit: "mm/s", Area: "South" }, "M-201"],
  ["E3", "RTM1", "D2", "HighVibration", "Minor", "vibration_warning level", "2026-01-01 04:00:00", "2026-01-01 04:10:00", 2, { Unit: "mm/s", Area: "South" }, "M-201"],
  ["E4", "HOU1", "D4", "LowThroughput", "Warning", "Throughput dropped", "2026-01-02 12:00:00", null, 100, { Area: "Bay 2" }, "T-401"],
  ["E5", "HOU1", "D3", "HighTemperature", "Critical", "Temp spike", "2026-01-02 00:00:00", "2026-01-02 00:30:00", 18, { Area: "Bay 1" }, "C-301"],
];

const text = (value: string | null) => (value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`);
const time = (value: string | null) => (value === null ? "NULL" : `TIMESTAMP '${value}'`);
const json = (value: object) => `'${JSON.stringify(value)}'`;
const topology = (reference: string) => json({ topologyReference: reference, topologyReferenceType: "asset" });

export const FIXTURE_SQL: string[] = [
  `INSERT INTO "States" VALUES ${STATE_ROWS.map(
    ([device, name, ts, value, plant, data, reference], i) =>
      // Row 5 (index 4) has no AgentTimestamp, to exercise datetime nulls.
      `(${text(device)}, ${text(name)}, ${time(ts)}, ${value ?? "NULL"}, ${text(plant)}, ${json(data)}, ${topology(reference)}, 'state', ${i === 4 ? "NULL" : time(ts)}, ${time(ts)} + INTERVAL 1 SECOND)`,
  ).join(", ")}`,
  `INSERT INTO "Events" VALUES ${EVENT_ROWS.map(
    ([id, plant, device, name, severity, message, start, end, value, data, reference]) =>
      `(${text(id)}, ${text(plant)}, ${text(device)}, ${text(name)}, ${text(severity)}, ${text(message)}, ${time(start)}, ${time(end)}, ${value}, ${json(data)}, ${topology(reference)})`,
  ).join(", ")}`,
];
