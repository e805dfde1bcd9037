/**
 * The running demo plant on ClickHouse (TELEMETRY_URL with DEMO_LIVE): each minute every demo series
 * gets its reading and alarms are raised and cleared, by the seed's own model (demo-data.ts), as the
 * embedded store's demo plant does (demo-plant.ts). With several instances each window is written
 * once: an instance first claims it in the service database (clickhouse/demo-claims.ts, keyed on
 * customer + first minute), so of the instances that read the same "written up to" marker only one
 * writes; a claim not finished within CLAIM_STALE_MS (its instance died) may be taken over, and
 * what the first one wrote before dying is then skipped by the reading sink's stored-key check.
 *
 * The model runs in a scratch in-memory DuckDB with the alarms still open in ClickHouse copied in
 * (so the ones that end in the window are cleared); readings go through ClickHouseReadingSink,
 * raised alarms are inserted, cleared ones updated (an ALTER … UPDATE of their EndTime), and the
 * marker `demo_until_minute` in the customer's `telemetry_meta` moves last.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import type { DemoPlant } from "../../demo/catalog";
import type { SqlDb } from "../../../platform/sql";
import { demoClaims } from "../clickhouse/demo-claims";
import type { ClickHouseExecutor } from "../clickhouse/executor";
import { demoReadingsAndAlarms } from "../demo-data";
import { ClickHouseReadingSink } from "../ingest/clickhouse-sink";
import { CREATE_TELEMETRY_SCHEMA, DEMO_UNTIL_MINUTE_KEY } from "../duckdb/schema";
import type { CatchUpResult, LiveDemoPlant } from "./index";

/** Longest window written at once (the catch-up after a pause goes in steps of this). */
const CHUNK_MINUTES = 60;
/** A claim older than this whose window the marker has not passed was left by a dead instance. */
const CLAIM_STALE_MS = 5 * 60_000;
const TICK_DELAY_MS = 1_000;

interface ClickHouseDemoOptions {
  executor: ClickHouseExecutor;
  databaseOf: (customerId: string) => string;
  db: SqlDb;
  customers: readonly { id: string; plants: readonly DemoPlant[] }[];
  seed: string;
  days: number;
  now: () => Date;
  /** Names this instance in its claims. */
  instance: string;
  log?: (line: string) => void;
  schedule?: boolean;
}

const lines = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8").split("\n").filter(Boolean);
const literal = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

export function startClickHouseDemoPlant(options: ClickHouseDemoOptions): LiveDemoPlant {
  const { executor, db } = options;
  const log = options.log ?? (() => undefined);
  const sink = new ClickHouseReadingSink(executor, options.databaseOf, 65_536);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  /** The minute up to which (exclusive) the demo model is in the database; null without demo data. */
  async function untilMinute(database: string): Promise<number | null> {
    const [row] = lines(
      await executor.query(
        `SELECT maxIf(toInt64OrZero(value), key = '${DEMO_UNTIL_MINUTE_KEY}'), maxIf(value, key = 'demo_seeded_at') FROM "${database}".telemetry_meta FORMAT JSONCompactEachRow`,
        {},
      ),
    );
    const [marker, seededAt] = JSON.parse(row ?? "[0, \"\"]") as [number | string, string];
    if (Number(marker) > 0) return Number(marker);
    // The seed ends with the minute it ran in.
    return seededAt ? Math.floor(Date.parse(seededAt) / 60_000) : null;
  }

  const claims = demoClaims(db, options.instance, options.now);

  async function writeWindow(customer: ClickHouseDemoOptions["customers"][number], database: string, from: number, to: number): Promise<CatchUpResult> {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      for (const statement of CREATE_TELEMETRY_SCHEMA) await connection.run(statement);
      // The alarms still open, so the model can clear the ones that end in this window.
      const open = lines(
        await executor.query(
          `SELECT EventId, PlantId, DeviceId, Name, Severity, Message, toUnixTimestamp64Milli(StartTime), Value, DataMetadata, MessageMetadata FROM "${database}"."Events" WHERE EndTime IS NULL FORMAT JSONCompactEachRow`,
          {},
        ),
      ).map((line) => JSON.parse(line) as [string, string, string, string, string, string, number | string, number | null, string | null, string | null]);
      for (const [id, plant, device, name, severity, message, start, value, data, meta] of open) {
        await connection.run(`INSERT INTO Events VALUES ($1, $2, $3, $4, $5, $6, epoch_ms($7::BIGINT), NULL, $8::DOUBLE, $9::JSON, $10::JSON)`, [id, plant, device, name, severity, message, Number(start), value, data, meta]);
      }
      const openIds = new Set(open.map((row) => row[0]));
      const { readings, alarms } = await demoReadingsAndAlarms(connection, { seed: options.seed, plants: customer.plants, fromMinute: from, toMinute: to });
      const written = await sink.write(
        customer.id,
        readings.map((r) => ({ plantId: r.plantId, deviceId: r.deviceId, name: r.name, timestamp: r.timestamp, value: r.value, sentAt: r.timestamp, receivedAt: r.timestamp, metadata: null })),
      );
      const events = (await connection.runAndReadAll(
        `SELECT EventId, PlantId, DeviceId, Name, Severity, Message, epoch_ms(StartTime), epoch_ms(EndTime), "Value", DataMetadata::VARCHAR, MessageMetadata::VARCHAR FROM Events`,
      )).getRows();
      const raised = events.filter((e) => !openIds.has(String(e[0])));
      const cleared = events.filter((e) => openIds.has(String(e[0])) && e[7] !== null);
      if (raised.length > 0) {
        // Raised already if a dead instance wrote them before its claim was taken over.
        const known = new Set(lines(await executor.query(`SELECT EventId FROM "${database}"."Events" WHERE EventId IN (${raised.map((e) => literal(String(e[0]))).join(",")}) FORMAT JSONCompactEachRow`, {})).map((l) => (JSON.parse(l) as [string])[0]));
        const rows = raised
          .filter((e) => !known.has(String(e[0])))
          .map(([id, plant, device, name, severity, message, start, end, value, data, meta]) =>
            JSON.stringify({ EventId: id, PlantId: plant, DeviceId: device, Name: name, Severity: severity, Message: message, StartTime: time(Number(start)), EndTime: end === null ? null : time(Number(end)), Value: value === null ? null : Number(value), DataMetadata: data, MessageMetadata: meta }),
          );
        if (rows.length > 0) await executor.insertJsonRows(`"${database}"."Events"`, rows.join("\n"));
      }
      for (const event of cleared) {
        await executor.command(`ALTER TABLE "${database}"."Events" UPDATE EndTime = fromUnixTimestamp64Milli({end:Int64}, 'UTC') WHERE EventId = {id:String}`, { end: String(Number(event[7])), id: String(event[0]) });
      }
      await executor.command(`INSERT INTO "${database}".telemetry_meta VALUES ('${DEMO_UNTIL_MINUTE_KEY}', {until:String})`, { until: String(to) });
      return { minutes: to - from, states: written.written, published: 0, raised: alarms.raised, cleared: cleared.length };
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  async function catchUpOnce(): Promise<CatchUpResult> {
    const total: CatchUpResult = { minutes: 0, states: 0, published: 0, raised: 0, cleared: 0 };
    for (const customer of options.customers) {
      if (customer.plants.length === 0) continue;
      const database = options.databaseOf(customer.id);
      for (;;) {
        if (stopped) return total;
        const until = await untilMinute(database);
        if (until === null) break;
        const to = Math.floor(options.now().getTime() / 60_000) + 1;
        const from = Math.max(until, to - options.days * 1440);
        if (from >= to) break;
        const end = Math.min(to, from + CHUNK_MINUTES);
        if (!(await claims.claim(customer.id, from, end, CLAIM_STALE_MS))) break; // another instance writes it
        const step = await writeWindow(customer, database, from, end);
        total.minutes = Math.max(total.minutes, step.minutes);
        total.states += step.states;
        total.raised += step.raised;
        total.cleared += step.cleared;
        if (end >= to) break;
      }
    }
    return total;
  }

  function catchUp(): Promise<CatchUpResult> {
    const next = running.then(catchUpOnce, catchUpOnce);
    running = next.catch(() => undefined);
    return next;
  }

  function scheduleNext() {
    if (stopped || !options.schedule) return;
    const delay = 60_000 - (Date.now() % 60_000) + TICK_DELAY_MS;
    timer = setTimeout(() => {
      catchUp()
        .catch((error: unknown) => log(`[telemetry] demo plant on ClickHouse: append failed, retrying next minute: ${error instanceof Error ? error.message : String(error)}`))
        .finally(scheduleNext);
    }, delay);
    timer.unref();
  }

  const ready = catchUp();
  ready.then(scheduleNext, (error: unknown) => {
    log(`[telemetry] demo plant on ClickHouse: catching up failed: ${error instanceof Error ? error.message : String(error)}`);
    scheduleNext();
  });
  return {
    ready,
    catchUp,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
