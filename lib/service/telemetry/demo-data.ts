/**
 * Demo telemetry, generated inside DuckDB with set-based SQL (never row by row), deterministic
 * from SEED: one reading per minute per device × data point over the last `days` days, with daily
 * cycles (in the plant's local time), noise, slow drifts and faults. Faults are decided per device
 * and six-hour slot by a hash of (seed, device, slot); the same formula drives both the readings
 * (a fault bends its data point, a stop zeroes the machine) and the `Events` rows, so every alarm
 * is visible in the data it is about.
 *
 * Noise comes from DuckDB's `hash()` of (seed, series, minute), so a minute's value does not depend
 * on when the data was generated, only on the seed.
 */
import { BIGINT, DuckDBTimestampValue, TIMESTAMP, type DuckDBConnection } from "@duckdb/node-api";
import type { DemoPlant } from "../seed/catalog";
import { createRandom } from "../seed/random";
import { DATA_POINT_KINDS, demoDevices, type DataPointRole, type DemoDevice } from "./demo-devices";

export interface DemoTelemetryOptions {
  seed: string;
  plants: readonly DemoPlant[];
  days: number;
  /** The data ends at this minute (exclusive). */
  now: Date;
}

export interface DemoTelemetryResult {
  series: number;
  states: number;
  events: number;
  ms: number;
}

/** Fault kinds, by the code the SQL uses; a fault of kind k bends the data point with role code k. */
const FAULT_ROLE_CODE: Record<DataPointRole, number> = {
  temperature: 0,
  vibration: 1,
  motorCurrent: 2,
  pressure: 3,
  throughput: 3,
  running: 4,
};

/** Signal model per role: base range, daily amplitude, noise, drift per day, fault offset. */
const SIGNAL: Record<DataPointRole, { base: [number, number]; amp: number; noise: number; drift: number; fault: number }> = {
  temperature: { base: [45, 75], amp: 4, noise: 0.6, drift: 0.08, fault: 28 },
  pressure: { base: [3, 9], amp: 0.3, noise: 0.08, drift: 0.01, fault: -2.5 },
  vibration: { base: [1.2, 3.5], amp: 0.25, noise: 0.15, drift: 0.06, fault: 7 },
  motorCurrent: { base: [20, 80], amp: 3, noise: 0.9, drift: 0.05, fault: 30 },
  throughput: { base: [40, 160], amp: 12, noise: 2.5, drift: -0.2, fault: -35 },
  running: { base: [1, 1], amp: 0, noise: 0, drift: 0, fault: 0 },
};

/** Share (per mille) of device × six-hour slots with a fault: about 0.16 faults per device per day. */
const FAULT_PER_MILLE = 40;
const SLOT_MINUTES = 360;

/** The plant's UTC offset at `now`, in minutes: daily cycles follow the site's clock. */
export function utcOffsetMinutes(timeZone: string, now: Date): number {
  const text = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(now)
    .find((part) => part.type === "timeZoneName")?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(text ?? "");
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** A 63-bit integer from the seed text, bound as DuckDB BIGINT. */
function seedNumber(seed: string): bigint {
  const random = createRandom(seed, "telemetry");
  return (BigInt(Math.floor(random.next() * 2 ** 31)) << 31n) | BigInt(Math.floor(random.next() * 2 ** 31));
}

interface SeriesRow {
  sid: number;
  device: DemoDevice;
  role: DataPointRole;
  tz: number;
}

/**
 * Hash keys of a device and of a series: functions of the seed and the names only, so a device's
 * readings and faults do not change when other plants or devices are added.
 */
function stableKey(...parts: string[]): number {
  return Math.floor(createRandom(...parts).next() * 2 ** 31);
}

const ts = (millis: number) => new DuckDBTimestampValue(BigInt(millis) * 1000n);

/** Fills an empty telemetry database (schema.ts) with the demo data of the given plants. */
export async function generateDemoTelemetry(connection: DuckDBConnection, options: DemoTelemetryOptions): Promise<DemoTelemetryResult> {
  const started = Date.now();
  const endMinute = Math.floor(options.now.getTime() / 60_000);
  const minutes = options.days * 1440;
  const startMinute = endMinute - minutes;
  const seed = seedNumber(options.seed);

  // Series in storage order: plant, data point name, device (schema.ts explains why).
  const series: SeriesRow[] = [];
  const devicesByPlant = options.plants.map((plant) => ({ plant, devices: demoDevices(options.seed, plant) }));
  for (const { plant, devices } of devicesByPlant) {
    const tz = utcOffsetMinutes(plant.timeZone, options.now);
    const rows = devices.flatMap((device) => device.dataPoints.map((role) => ({ device, role })));
    rows.sort((a, b) => cmp(DATA_POINT_KINDS[a.role].name, DATA_POINT_KINDS[b.role].name) || cmp(a.device.deviceId, b.device.deviceId));
    for (const { device, role } of rows) series.push({ sid: series.length, device, role, tz });
  }

  await connection.run(`CREATE TEMP TABLE gen_series (
    sid USMALLINT, series_key INTEGER, device_key INTEGER, role_code INTEGER, is_running BOOLEAN, tz INTEGER,
    base DOUBLE, amp DOUBLE, phase DOUBLE, noise DOUBLE, drift DOUBLE, fault DOUBLE)`);
  const insertSeries = await connection.prepare(
    `INSERT INTO StateSeries VALUES ($1, $2, $3, $4, $5::JSON, $6::JSON)`,
  );
  const insertGen = await connection.prepare(`INSERT INTO gen_series VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`);
  for (const s of series) {
    const kind = DATA_POINT_KINDS[s.role];
    const model = SIGNAL[s.role];
    const random = createRandom(options.seed, s.device.deviceId, s.role);
    const base = model.base[0] + (model.base[1] - model.base[0]) * random.next();
    // About one device in four drifts (wear, fouling); the others hold steady.
    const drift = random.chance(0.25) ? model.drift * (0.5 + random.next()) : 0;
    insertSeries.bind([
      s.sid,
      s.device.plantId,
      kind.name,
      s.device.deviceId,
      JSON.stringify({ Unit: kind.unit, Area: s.device.area, Line: s.device.line, DeviceType: s.device.deviceType }),
      JSON.stringify({
        topologyReference: s.device.tagNumber,
        topologyReferenceType: "asset",
        messageIntervalMilliseconds: 60_000,
        jobId: s.device.jobId,
        jobName: s.device.jobName,
      }),
    ]);
    await insertSeries.run();
    insertGen.bind([
      s.sid,
      stableKey(options.seed, s.device.deviceId, s.role, "series"),
      stableKey(options.seed, s.device.deviceId, "device"),
      FAULT_ROLE_CODE[s.role],
      s.role === "running",
      s.tz,
      base,
      model.amp * (0.5 + random.next()),
      random.next() * 0.8,
      model.noise,
      drift,
      model.fault,
    ]);
    await insertGen.run();
  }

  // The signal model, shared by the readings and the alarms (whose Value is the reading at their start).
  // `u1`, `u2` are uniform noise from the reading's hash `h`; a fault of kind 4 stops the machine.
  await connection.run(`CREATE TEMP MACRO pd_unit(h, shift) AS ((h >> shift) % 10007) / 10007.0`);
  await connection.run(
    `CREATE TEMP MACRO pd_reading(role_code, is_running, tz, base, amp, phase, noise, drift, fault, m, m0, u1, u2, fault_active, fault_kind) AS
     CASE
       WHEN fault_active AND fault_kind = 4 THEN CASE role_code
         WHEN 4 THEN 0
         WHEN 0 THEN round(base - 9 + noise * (u1 + u2 - 1), 2)
         ELSE round(base * 0.02 * u1, 2) END
       WHEN is_running THEN 1
       ELSE round(base + amp * sin(2 * pi() * ((m + tz) % 1440) / 1440 - 2 * pi() * phase)
         + drift * (m - m0) / 1440
         + noise * (u1 + u2 - 1)
         + CASE WHEN fault_active AND fault_kind = role_code THEN fault * (0.7 + 0.3 * u1) ELSE 0 END, 2)
     END`,
  );

  const params = { seed, m0: BigInt(startMinute), minutes: BigInt(minutes), n: BigInt(series.length * minutes) };
  // One statement for all readings. The range is walked series by series, minute by minute, and
  // the join with the small series table keeps that order, so rows land already sorted.
  await connection.run(
    `INSERT INTO StateValues
     SELECT sid, epoch_ms(m * 60000) AS "Timestamp",
       pd_reading(role_code, is_running, tz, base, amp, phase, noise, drift, fault, m, $m0, u1, u2, fault_active, fault_kind) AS "Value",
       ((h >> 40) % 900)::USMALLINT AS AgentDelayMs,
       (250 + (h >> 50) % 2500)::USMALLINT AS IngestionDelayMs
     FROM (
       SELECT *,
         pd_unit(h, 0) AS u1, pd_unit(h, 16) AS u2,
         fh % 1000 < ${FAULT_PER_MILLE}
           AND m % ${SLOT_MINUTES} >= (fh // 5000) % 300
           AND m % ${SLOT_MINUTES} < (fh // 5000) % 300 + 5 + (fh // 1500000) % 116 AS fault_active,
         ((fh // 1000) % 5)::INTEGER AS fault_kind
       FROM (
         SELECT g.*, r.m, hash($seed, g.series_key, r.m) AS h, hash($seed, g.device_key, r.m // ${SLOT_MINUTES}) AS fh
         FROM (SELECT i // $minutes AS sid, $m0 + i % $minutes AS m FROM range($n) r(i)) r
         JOIN gen_series g USING (sid)
       )
     )`,
    params,
    { seed: BIGINT, m0: BIGINT, minutes: BIGINT, n: BIGINT },
  );

  // Alarms: the same fault formula over device × slot; the reading at the alarm's start is its Value
  // (computed, not looked up: a join with 10 M readings would cost a sixth of the generation).
  await connection.run(
    `INSERT INTO Events
     SELECT 'EV-' || s.DeviceId || '-' || f.slot AS EventId,
       s.PlantId, s.DeviceId,
       CASE WHEN f.fault_kind <> 3 THEN f.alarm WHEN s.Name = 'Pressure' THEN 'LowPressure' ELSE 'LowThroughput' END AS Name,
       f.severity AS Severity,
       CASE WHEN f.fault_kind <> 3 THEN f.label WHEN s.Name = 'Pressure' THEN 'Low pressure' ELSE 'Low throughput' END || ' on ' || (s.MessageMetadata->>'topologyReference') || ' (' || s.DeviceId || ')' AS Message,
       epoch_ms(f.start_minute * 60000) AS StartTime,
       CASE WHEN f.end_minute > $m1 THEN NULL ELSE epoch_ms(f.end_minute * 60000) END AS EndTime,
       pd_reading(g.role_code, g.is_running, g.tz, g.base, g.amp, g.phase, g.noise, g.drift, g.fault,
         f.start_minute, $m0, pd_unit(hash($seed, g.series_key, f.start_minute), 0), pd_unit(hash($seed, g.series_key, f.start_minute), 16),
         TRUE, f.fault_kind) AS "Value",
       s.DataMetadata, s.MessageMetadata
     FROM (
       SELECT device_key, slot, fault_kind,
         (slot * ${SLOT_MINUTES} + (fh // 5000) % 300)::BIGINT AS start_minute,
         (slot * ${SLOT_MINUTES} + (fh // 5000) % 300 + 5 + (fh // 1500000) % 116)::BIGINT AS end_minute,
         ['HighTemperature', 'HighVibration', 'MotorOverload', NULL, 'UnexpectedStop'][fault_kind + 1] AS alarm,
         ['High temperature', 'High vibration', 'Motor overload', NULL, 'Unexpected stop'][fault_kind + 1] AS label,
         CASE fault_kind
           WHEN 0 THEN ['Critical', 'Major', 'Major'][((fh >> 40) % 3)::INTEGER + 1]
           WHEN 1 THEN ['Major', 'Minor', 'Minor'][((fh >> 40) % 3)::INTEGER + 1]
           WHEN 2 THEN ['Major', 'Warning'][((fh >> 40) % 2)::INTEGER + 1]
           WHEN 3 THEN ['Minor', 'Warning'][((fh >> 40) % 2)::INTEGER + 1]
           ELSE 'Critical' END AS severity
       FROM (
         SELECT d.device_key, slot, hash($seed, d.device_key, slot) AS fh, ((hash($seed, d.device_key, slot) // 1000) % 5)::INTEGER AS fault_kind
         FROM (SELECT DISTINCT device_key FROM gen_series) d, range($m0 // ${SLOT_MINUTES}, $m1 // ${SLOT_MINUTES} + 1) t(slot)
       )
       WHERE fh % 1000 < ${FAULT_PER_MILLE}
     ) f
     JOIN gen_series g ON g.device_key = f.device_key AND g.role_code = f.fault_kind
     JOIN StateSeries s ON s.sid = g.sid
     WHERE f.start_minute >= $m0 AND f.start_minute < $m1
     ORDER BY s.PlantId, StartTime, EventId`,
    { seed, m0: BigInt(startMinute), m1: BigInt(endMinute) },
    { seed: BIGINT, m0: BIGINT, m1: BIGINT },
  );
  // A few devices carry a warning nobody has cleared yet: active alarms with a NULL EndTime.
  await connection.run(
    `INSERT INTO Events
     SELECT 'EV-' || s.DeviceId || '-CAL', s.PlantId, s.DeviceId, 'CalibrationOverdue', 'Warning',
       'Calibration overdue on ' || (s.MessageMetadata->>'topologyReference') || ' (' || s.DeviceId || ')',
       $end - to_minutes((60 + hash($seed, g.device_key, 'calibration') % (1440 * 6))::BIGINT),
       NULL, NULL, s.DataMetadata, s.MessageMetadata
     FROM gen_series g JOIN StateSeries s ON s.sid = g.sid
     WHERE g.role_code = 0 AND hash($seed, g.device_key, 'calibration') % 7 = 0`,
    { seed, end: ts(endMinute * 60_000) },
    { seed: BIGINT, end: TIMESTAMP },
  );
  await connection.run(`DROP TABLE gen_series`);

  const counts = await connection.runAndReadAll(
    `SELECT (SELECT count(*) FROM StateValues)::INTEGER, (SELECT count(*) FROM Events)::INTEGER`,
  );
  const [states, events] = counts.getRows()[0] as [number, number];
  return { series: series.length, states, events, ms: Date.now() - started };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
