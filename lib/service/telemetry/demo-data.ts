/**
 * Demo telemetry, generated inside DuckDB with set-based SQL (never row by row), deterministic
 * from SEED: one reading per minute per device × data point, with daily cycles (in the plant's
 * local time), noise, slow drifts and faults. Faults are decided per device and six-hour slot by a
 * hash of (seed, device, slot); the same formula drives both the readings (a fault bends its data
 * point, a stop zeroes the machine) and the `Events` rows, so every alarm is visible in the data
 * it is about.
 *
 * The model is a pure function of (seed, series, minute): noise is DuckDB's `hash()` of the three,
 * drifts are a saw-tooth on the absolute minute (wear builds up, maintenance resets it), the
 * daily cycle uses the site's UTC offset at that minute. So the first start's 30 days and every
 * window the running plant appends later (docs/telemetry-ingest.md, "The demo plant runs") are the
 * same data a seed generated at a later "now" would hold.
 */
import { BIGINT, type DuckDBConnection } from "@duckdb/node-api";
import type { DemoPlant } from "../demo/catalog";
import { createRandom } from "../demo/seeded-random";
import { DATA_POINT_KINDS, demoDevices, type DataPointRole, type DemoDevice } from "./demo-devices";
import type { TelemetrySeed, TelemetrySeedResult } from "./store";

interface DemoTelemetryOptions {
  seed: string;
  plants: readonly DemoPlant[];
  days: number;
  /** The data ends at this minute (exclusive). */
  now: Date;
}

export type DemoTelemetryResult = TelemetrySeedResult;

/** A window of the model to write: minutes since the epoch, `to` exclusive. */
interface DemoWindow {
  seed: string;
  plants: readonly DemoPlant[];
  fromMinute: number;
  toMinute: number;
}

interface DemoWindowResult {
  /** Readings written. */
  states: number;
  /** Alarms raised (new `Events` rows). */
  raised: number;
  /** Alarms that were active and ended inside the window (their `EndTime` set). */
  cleared: number;
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
/** A fault starts within its slot's first 300 minutes and lasts 5 to 120. */
const LONGEST_FAULT_MINUTES = 300 + 120;
/** A drifting series wears for six weeks, then maintenance resets it. */
const DRIFT_CYCLE_MINUTES = 42 * 1440;
/** Calibration: per temperature sensor and fortnight, one chance in seven to fall overdue, cleared 2–13 days later. */
const CALIBRATION_PERIOD_MINUTES = 14 * 1440;
const LONGEST_CALIBRATION_MINUTES = CALIBRATION_PERIOD_MINUTES + 13 * 1440;

/** The plant's UTC offset at `now`, in minutes: daily cycles follow the site's clock. */
function utcOffsetMinutes(timeZone: string, now: Date): number {
  const text = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(now)
    .find((part) => part.type === "timeZoneName")?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(text ?? "");
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/**
 * The offsets of a time zone over [fromMinute, toMinute): `[{ from, offset }]`, the first entry
 * from `fromMinute`. Daylight-saving changes are found day by day, then to the minute.
 */
function offsetPeriods(timeZone: string, fromMinute: number, toMinute: number): { from: number; offset: number }[] {
  const at = (minute: number) => utcOffsetMinutes(timeZone, new Date(minute * 60_000));
  const periods = [{ from: fromMinute, offset: at(fromMinute) }];
  for (let day = fromMinute; day < toMinute; day += 1440) {
    const end = Math.min(day + 1440, toMinute);
    const current = periods[periods.length - 1]!.offset;
    if (at(end) === current) continue;
    let low = day; // offset `current` at low, another one at high
    let high = end;
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (at(mid) === current) low = mid;
      else high = mid;
    }
    periods.push({ from: high, offset: at(high) });
  }
  return periods;
}

/** A 63-bit integer from the seed text, bound as DuckDB BIGINT. */
function seedNumber(seed: string): bigint {
  const random = createRandom(seed, "telemetry");
  return (BigInt(Math.floor(random.next() * 2 ** 31)) << 31n) | BigInt(Math.floor(random.next() * 2 ** 31));
}

/** One series of the demo: a device's data point, with its place in the storage order. */
interface DemoSeries {
  /** Position in storage order (plant, data point name, device); the seed's `sid`. */
  index: number;
  device: DemoDevice;
  role: DataPointRole;
  name: string;
  timeZone: string;
}

/** Every demo series of the plants, in storage order: plant, data point name, device (schema.ts explains why). */
function demoSeries(seed: string, plants: readonly DemoPlant[]): DemoSeries[] {
  const series: DemoSeries[] = [];
  for (const plant of plants) {
    const rows = demoDevices(seed, plant).flatMap((device) => device.dataPoints.map((role) => ({ device, role })));
    rows.sort((a, b) => cmp(DATA_POINT_KINDS[a.role].name, DATA_POINT_KINDS[b.role].name) || cmp(a.device.deviceId, b.device.deviceId));
    for (const { device, role } of rows) series.push({ index: series.length, device, role, name: DATA_POINT_KINDS[role].name, timeZone: plant.timeZone });
  }
  return series;
}

/** `States` metadata of a demo series (decisions: the keys real data carries). */
function demoSeriesMetadata(series: DemoSeries): { data: Record<string, string>; message: Record<string, string | number> } {
  const { device } = series;
  return {
    data: { Unit: DATA_POINT_KINDS[series.role].unit, Area: device.area, Line: device.line, DeviceType: device.deviceType },
    message: {
      topologyReference: device.tagNumber,
      topologyReferenceType: "asset",
      messageIntervalMilliseconds: 60_000,
      jobId: device.jobId,
      jobName: device.jobName,
    },
  };
}

/**
 * Hash keys of a device and of a series: functions of the seed and the names only, so a device's
 * readings and faults do not change when other plants or devices are added.
 */
function stableKey(...parts: string[]): number {
  return Math.floor(createRandom(...parts).next() * 2 ** 31);
}

/** The model's series over [fromMinute, toMinute): `sids[i]` is the storage id of `series[i]`. */
interface ModelWindow {
  seed: string;
  series: readonly DemoSeries[];
  sids: readonly number[];
  fromMinute: number;
  toMinute: number;
}

/** The parameters of READINGS_SQL over the window. */
function readingsParams({ seed, series, fromMinute, toMinute }: ModelWindow) {
  const minutes = toMinute - fromMinute;
  return { seed: seedNumber(seed), m0: BigInt(fromMinute), minutes: BigInt(minutes), n: BigInt(series.length * minutes) };
}

/**
 * Loads the model of the given series into the connection: a temp table of series parameters
 * (`gen_series`, row `idx` = the series' position in `series`, `sid` = its storage id) and the
 * macros of the signal model. Valid for minutes in [fromMinute - lookback, toMinute).
 */
async function loadModel(connection: DuckDBConnection, { seed, series, sids, fromMinute, toMinute }: ModelWindow): Promise<void> {
  await connection.run(`CREATE OR REPLACE TEMP TABLE gen_series (
    idx INTEGER, sid USMALLINT, series_key INTEGER, device_key INTEGER, role_code INTEGER, is_running BOOLEAN, zone INTEGER,
    base DOUBLE, amp DOUBLE, phase DOUBLE, noise DOUBLE, drift DOUBLE, drift_phase INTEGER, fault DOUBLE)`);
  const zones = [...new Set(series.map((s) => s.timeZone))];
  const values: string[] = [];
  for (const s of series) {
    const model = SIGNAL[s.role];
    const random = createRandom(seed, s.device.deviceId, s.role);
    const base = model.base[0] + (model.base[1] - model.base[0]) * random.next();
    // About one device in four drifts (wear, fouling); the others hold steady.
    const drift = random.chance(0.25) ? model.drift * (0.5 + random.next()) : 0;
    const amp = model.amp * (0.5 + random.next());
    const phase = random.next() * 0.8;
    values.push(
      `(${s.index}, ${sids[s.index]}, ${stableKey(seed, s.device.deviceId, s.role, "series")}, ${stableKey(seed, s.device.deviceId, "device")}, ` +
        `${FAULT_ROLE_CODE[s.role]}, ${s.role === "running"}, ${zones.indexOf(s.timeZone)}, ${base}, ${amp}, ${phase}, ${model.noise}, ` +
        `${drift}, ${stableKey(seed, s.device.deviceId, s.role, "drift") % DRIFT_CYCLE_MINUTES}, ${model.fault})`,
    );
  }
  // Numbers only, produced here: one statement instead of one round trip per series.
  if (values.length > 0) await connection.run(`INSERT INTO gen_series VALUES ${values.join(", ")}`);

  // The site's UTC offset at minute m, as a CASE over the offset periods of the window.
  const lookback = Math.max(LONGEST_FAULT_MINUTES, LONGEST_CALIBRATION_MINUTES);
  const zoneCases = zones.map((zone, i) => {
    const periods = offsetPeriods(zone, fromMinute - lookback, toMinute + 1);
    const inner = periods
      .slice(1)
      .reverse()
      .map((p) => `WHEN m >= ${p.from} THEN ${p.offset}`)
      .join(" ");
    return `WHEN ${i} THEN ${inner ? `CASE ${inner} ELSE ${periods[0]!.offset} END` : periods[0]!.offset}`;
  });
  await connection.run(`CREATE OR REPLACE TEMP MACRO pd_tz(zone, m) AS CASE zone ${zoneCases.join(" ")} ELSE 0 END`);
  await connection.run(`CREATE OR REPLACE TEMP MACRO pd_unit(h, shift) AS ((h >> shift) % 10007) / 10007.0`);
  // The signal model, shared by the readings and the alarms (whose Value is the reading at their start).
  // `u1`, `u2` are uniform noise from the reading's hash; a fault of kind 4 stops the machine.
  await connection.run(
    `CREATE OR REPLACE TEMP MACRO pd_reading(role_code, is_running, zone, base, amp, phase, noise, drift, drift_phase, fault, m, u1, u2, fault_active, fault_kind) AS
     CASE
       WHEN fault_active AND fault_kind = 4 THEN CASE role_code
         WHEN 4 THEN 0
         WHEN 0 THEN round(base - 9 + noise * (u1 + u2 - 1), 2)
         ELSE round(base * 0.02 * u1, 2) END
       WHEN is_running THEN 1
       ELSE round(base + amp * sin(2 * pi() * ((m + pd_tz(zone, m)) % 1440) / 1440 - 2 * pi() * phase)
         + drift * ((m + drift_phase) % ${DRIFT_CYCLE_MINUTES}) / 1440
         + noise * (u1 + u2 - 1)
         + CASE WHEN fault_active AND fault_kind = role_code THEN fault * (0.7 + 0.3 * u1) ELSE 0 END, 2)
     END`,
  );
}

/**
 * The readings of the loaded model over [$m0, $m0 + $minutes): sid, Timestamp, Value and the two
 * delays, walked series by series, minute by minute (the join with the small series table keeps
 * that order, so rows land already sorted).
 */
const READINGS_SQL = `
  SELECT sid, idx, epoch_ms(m * 60000) AS "Timestamp",
    pd_reading(role_code, is_running, zone, base, amp, phase, noise, drift, drift_phase, fault, m, u1, u2, fault_active, fault_kind) AS "Value",
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
      FROM (SELECT i // $minutes AS idx, $m0 + i % $minutes AS m FROM range($n) r(i)) r
      JOIN gen_series g USING (idx)
    )
  )`;

const READING_TYPES = { seed: BIGINT, m0: BIGINT, minutes: BIGINT, n: BIGINT };

/**
 * Every alarm of the loaded model that starts in [$from, $to): faults (the same formula as the
 * readings) and calibration warnings. `EndTime` is NULL while the alarm is still active at $to.
 */
const ALARMS_SQL = `
  SELECT 'EV-' || s.DeviceId || '-' || f.slot AS EventId,
    s.PlantId, s.DeviceId,
    CASE WHEN f.fault_kind <> 3 THEN f.alarm WHEN s.Name = 'Pressure' THEN 'LowPressure' ELSE 'LowThroughput' END AS Name,
    f.severity AS Severity,
    CASE WHEN f.fault_kind <> 3 THEN f.label WHEN s.Name = 'Pressure' THEN 'Low pressure' ELSE 'Low throughput' END || ' on ' || (s.MessageMetadata->>'topologyReference') || ' (' || s.DeviceId || ')' AS Message,
    f.start_minute, f.end_minute,
    pd_reading(g.role_code, g.is_running, g.zone, g.base, g.amp, g.phase, g.noise, g.drift, g.drift_phase, g.fault,
      f.start_minute, pd_unit(hash($seed, g.series_key, f.start_minute), 0), pd_unit(hash($seed, g.series_key, f.start_minute), 16),
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
      FROM (SELECT DISTINCT device_key FROM gen_series) d, range($from // ${SLOT_MINUTES}, $to // ${SLOT_MINUTES} + 1) t(slot)
    )
    WHERE fh % 1000 < ${FAULT_PER_MILLE}
  ) f
  JOIN gen_series g ON g.device_key = f.device_key AND g.role_code = f.fault_kind
  JOIN StateSeries s ON s.sid = g.sid
  WHERE f.start_minute >= $from AND f.start_minute < $to
  UNION ALL
  SELECT 'EV-' || s.DeviceId || '-CAL-' || c.period, s.PlantId, s.DeviceId, 'CalibrationOverdue', 'Warning',
    'Calibration overdue on ' || (s.MessageMetadata->>'topologyReference') || ' (' || s.DeviceId || ')',
    c.start_minute, (c.start_minute + (2 + hash($seed, g.device_key, 'calibration-days', c.period) % 12) * 1440)::BIGINT,
    NULL, s.DataMetadata, s.MessageMetadata
  FROM (
    SELECT g.idx, t.period, (t.period * ${CALIBRATION_PERIOD_MINUTES} + hash($seed, g.device_key, 'calibration', t.period) // 7 % ${CALIBRATION_PERIOD_MINUTES})::BIGINT AS start_minute
    FROM gen_series g, range($from // ${CALIBRATION_PERIOD_MINUTES}, $to // ${CALIBRATION_PERIOD_MINUTES} + 1) t(period)
    WHERE g.role_code = 0 AND hash($seed, g.device_key, 'calibration', t.period) % 7 = 0
  ) c
  JOIN gen_series g USING (idx)
  JOIN StateSeries s ON s.sid = g.sid
  WHERE c.start_minute >= $from AND c.start_minute < $to`;

/**
 * Writes the model's readings and alarms over the window into a database whose `StateSeries`
 * holds the series: readings of the window, alarms that start in it, and the end of alarms that
 * started earlier and end in it. The caller owns the transaction.
 */
async function writeWindow(connection: DuckDBConnection, window: ModelWindow, readings: "write" | "skip" = "write"): Promise<DemoWindowResult> {
  const { seed, series, fromMinute, toMinute } = window;
  if (toMinute <= fromMinute || series.length === 0) return { states: 0, raised: 0, cleared: 0 };
  await loadModel(connection, window);
  const seedValue = seedNumber(seed);
  let states = 0;
  if (readings === "write") {
    const inserted = await connection.run(
      `INSERT INTO StateValues SELECT sid, "Timestamp", "Value", AgentDelayMs, IngestionDelayMs FROM (${READINGS_SQL})`,
      readingsParams(window),
      READING_TYPES,
    );
    states = Number(inserted.rowsChanged);
  }

  // Alarms of the window, plus those that started up to a longest alarm before it (they may end in it).
  const lookback = Math.max(LONGEST_FAULT_MINUTES, LONGEST_CALIBRATION_MINUTES);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE gen_alarms AS SELECT * FROM (${ALARMS_SQL})`,
    { seed: seedValue, from: BigInt(fromMinute - lookback), to: BigInt(toMinute) },
    { seed: BIGINT, from: BIGINT, to: BIGINT },
  );
  const raised = await connection.run(
    `INSERT INTO Events
     SELECT EventId, PlantId, DeviceId, Name, Severity, Message, epoch_ms(start_minute * 60000),
       CASE WHEN end_minute > $to THEN NULL ELSE epoch_ms(end_minute * 60000) END, "Value", DataMetadata, MessageMetadata
     FROM gen_alarms a
     WHERE start_minute >= $from AND NOT EXISTS (SELECT 1 FROM Events e WHERE e.EventId = a.EventId)
     ORDER BY PlantId, start_minute, EventId`,
    { from: BigInt(fromMinute), to: BigInt(toMinute) },
    { from: BIGINT, to: BIGINT },
  );
  const cleared = await connection.run(
    `UPDATE Events SET EndTime = epoch_ms(a.end_minute * 60000)
     FROM gen_alarms a
     WHERE Events.EventId = a.EventId AND Events.EndTime IS NULL AND a.start_minute < $from AND a.end_minute <= $to`,
    { from: BigInt(fromMinute), to: BigInt(toMinute) },
    { from: BIGINT, to: BIGINT },
  );
  await connection.run(`DROP TABLE gen_alarms`);
  await connection.run(`DROP TABLE gen_series`);
  return { states, raised: Number(raised.rowsChanged), cleared: Number(cleared.rowsChanged) };
}

/** Fills an empty telemetry database (schema.ts) with the demo data of the given plants. */
export async function generateDemoTelemetry(connection: DuckDBConnection, options: DemoTelemetryOptions): Promise<DemoTelemetryResult> {
  const started = Date.now();
  const endMinute = Math.floor(options.now.getTime() / 60_000);
  const series = demoSeries(options.seed, options.plants);
  const insertSeries = await connection.prepare(`INSERT INTO StateSeries VALUES ($1, $2, $3, $4, $5::JSON, $6::JSON)`);
  for (const s of series) {
    const metadata = demoSeriesMetadata(s);
    insertSeries.bind([s.index, s.device.plantId, s.name, s.device.deviceId, JSON.stringify(metadata.data), JSON.stringify(metadata.message)]);
    await insertSeries.run();
  }
  const sids = series.map((s) => s.index);
  const written = await writeWindow(connection, { seed: options.seed, series, sids, fromMinute: endMinute - options.days * 1440, toMinute: endMinute });
  return { series: series.length, states: written.states, events: written.raised, ms: Date.now() - started };
}

/** The demo data as a store's seed hook (store.ts, TelemetrySeed): `days` of it up to `now`. */
export function demoTelemetrySeed(demo: { seed: string; days: number; now?: Date }): TelemetrySeed {
  return {
    ...(demo.now ? { now: demo.now } : {}),
    generate: (connection, plants, now) => generateDemoTelemetry(connection, { seed: demo.seed, plants, days: demo.days, now }),
  };
}

/**
 * Appends the window [fromMinute, toMinute) of the model to a database that holds the demo series
 * (seeded by generateDemoTelemetry): readings, new alarms, alarms that ended. Series the file does
 * not have yet (a plant added later) are added. The caller owns the transaction and makes sure the
 * window was not written before.
 */
export async function appendDemoTelemetry(connection: DuckDBConnection, window: DemoWindow): Promise<DemoWindowResult> {
  const series = demoSeries(window.seed, window.plants);
  return writeWindow(connection, { ...window, series, sids: await demoSeriesIds(connection, series) });
}

/** One reading of the model, for publishing it instead of writing it (DEMO_PUBLISH=mqtt). */
export interface DemoReading {
  plantId: string;
  deviceId: string;
  name: string;
  timestamp: number;
  value: number;
}

/**
 * The model's readings over [fromMinute, toMinute), computed but not written; plus the alarms of
 * the window, which it does write (alarms have no MQTT form). The caller owns the transaction.
 */
export async function demoReadingsAndAlarms(connection: DuckDBConnection, window: DemoWindow): Promise<{ readings: DemoReading[]; alarms: DemoWindowResult }> {
  const series = demoSeries(window.seed, window.plants);
  const model: ModelWindow = { ...window, series, sids: await demoSeriesIds(connection, series) };
  if (window.toMinute <= window.fromMinute || series.length === 0) return { readings: [], alarms: { states: 0, raised: 0, cleared: 0 } };
  await loadModel(connection, model);
  const reader = await connection.runAndReadAll(`SELECT idx, epoch_ms("Timestamp")::DOUBLE, "Value" FROM (${READINGS_SQL}) ORDER BY "Timestamp", idx`, readingsParams(model), READING_TYPES);
  const readings = reader.getRows().map(([idx, timestamp, value]) => {
    const s = series[Number(idx)]!;
    return { plantId: s.device.plantId, deviceId: s.device.deviceId, name: s.name, timestamp: Number(timestamp), value: Number(value) };
  });
  // The readings go out through MQTT; only the alarms are written here.
  const alarms = await writeWindow(connection, model, "skip");
  return { readings, alarms };
}

/**
 * Storage ids of the demo series in this file, by (plant, name, device); series it lacks are
 * added after the highest id in use.
 */
async function demoSeriesIds(connection: DuckDBConnection, series: readonly DemoSeries[]): Promise<number[]> {
  const reader = await connection.runAndReadAll(`SELECT sid, PlantId, Name, DeviceId FROM StateSeries`);
  const known = new Map<string, number>();
  let next = 0;
  for (const [sid, plantId, name, deviceId] of reader.getRows()) {
    known.set(`${plantId}\u0000${name}\u0000${deviceId}`, Number(sid));
    next = Math.max(next, Number(sid) + 1);
  }
  const sids: number[] = [];
  for (const s of series) {
    const key = `${s.device.plantId}\u0000${s.name}\u0000${s.device.deviceId}`;
    let sid = known.get(key);
    if (sid === undefined) {
      sid = next++;
      const metadata = demoSeriesMetadata(s);
      await connection.run(`INSERT INTO StateSeries VALUES ($1, $2, $3, $4, $5::JSON, $6::JSON)`, [
        sid,
        s.device.plantId,
        s.name,
        s.device.deviceId,
        JSON.stringify(metadata.data),
        JSON.stringify(metadata.message),
      ]);
      known.set(key, sid);
    }
    sids.push(sid);
  }
  return sids;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
