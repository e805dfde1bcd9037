/**
 * The running demo plant: while the server runs, every demo series gets its reading each minute
 * and alarms are raised and cleared, by the seed's own model (demo-data.ts). At start it first
 * fills the gap since the file's last demo minute (at most DEMO_TELEMETRY_DAYS back), in day-sized
 * transactions so queries keep getting CPU in between; each append moves the file's
 * `demo_until_minute` marker in the same transaction, so no minute is written twice, whatever
 * stops the server when.
 *
 * With a publisher (DEMO_PUBLISH=mqtt) a short window's readings go out as MQTT messages instead,
 * through the same ingestion path real devices use; alarms, which have no MQTT form, and long gaps
 * (bulk SQL beats a day of messages by far) are still written directly.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { DemoPlant } from "../../demo/catalog";
import { appendDemoTelemetry, demoReadingsAndAlarms, type DemoReading } from "../demo-data";
import type { DuckDbTelemetryStore } from "../duckdb/store";
import { DEMO_UNTIL_MINUTE_KEY } from "../duckdb/schema";
import type { CatchUpResult, LiveDemoPlant } from "./index";

/** Longest window written in one transaction (a day: about 600 k readings for the larger customer). */
const CHUNK_MINUTES = 1440;
/** Windows up to this long go through the publisher when there is one. */
const PUBLISH_MAX_MINUTES = 60;
/** The minute's timer fires this long after the minute begins. */
const TICK_DELAY_MS = 1_000;

export interface DemoPublisher {
  /** Sends the readings; resolves when the broker has accepted them. */
  publish(readings: readonly DemoReading[]): Promise<void>;
}

interface DemoPlantOptions {
  store: DuckDbTelemetryStore;
  customers: readonly { id: string; plants: readonly DemoPlant[] }[];
  seed: string;
  /** DEMO_TELEMETRY_DAYS: how far back a gap is filled. */
  days: number;
  now: () => Date;
  publisher?: DemoPublisher;
  log?: (line: string) => void;
  /** Run the minute timer (the server); tests call `catchUp()` with their own clock instead. */
  schedule?: boolean;
}

async function untilMinute(connection: DuckDBConnection): Promise<number | null> {
  const marker = await connection.runAndReadAll(`SELECT value FROM telemetry_meta WHERE key = '${DEMO_UNTIL_MINUTE_KEY}'`);
  if (marker.currentRowCount > 0) return Number(marker.getRows()[0]![0]);
  const seeded = await connection.runAndReadAll(`SELECT 1 FROM telemetry_meta WHERE key = 'demo_seeded_at'`);
  if (seeded.currentRowCount === 0) return null; // no demo data in this file
  // A file seeded before the marker existed: it ends with its newest reading.
  const newest = await connection.runAndReadAll(`SELECT epoch_ms(max("Timestamp")) FROM StateValues`);
  const value = newest.getRows()[0]?.[0];
  return value === null || value === undefined ? null : Math.floor(Number(value) / 60_000) + 1;
}

export function startDemoPlant(options: DemoPlantOptions): LiveDemoPlant {
  const log = options.log ?? (() => undefined);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  /** One transaction: the next window of one customer, and the marker. Null when nothing is due. */
  async function appendNext(customer: DemoPlantOptions["customers"][number]): Promise<(CatchUpResult & { more: boolean }) | null> {
    return options.store.write(customer.id, async (connection) => {
      const until = await untilMinute(connection);
      if (until === null) return null;
      // Up to and including the current minute: its reading is stamped at the minute's start.
      const to = Math.floor(options.now().getTime() / 60_000) + 1;
      const from = Math.max(until, to - options.days * 1440);
      if (from >= to) return null;
      const end = Math.min(to, from + CHUNK_MINUTES);
      const window = { seed: options.seed, plants: customer.plants, fromMinute: from, toMinute: end };
      let result: CatchUpResult;
      if (options.publisher && end - from <= PUBLISH_MAX_MINUTES) {
        const { readings, alarms } = await demoReadingsAndAlarms(connection, window);
        // Published before the marker commits: a failed publish rolls the window back and it is tried again.
        await options.publisher.publish(readings);
        result = { minutes: end - from, states: 0, published: readings.length, raised: alarms.raised, cleared: alarms.cleared };
      } else {
        const written = await appendDemoTelemetry(connection, window);
        result = { minutes: end - from, states: written.states, published: 0, raised: written.raised, cleared: written.cleared };
      }
      await connection.run(`INSERT OR REPLACE INTO telemetry_meta VALUES ('${DEMO_UNTIL_MINUTE_KEY}', $1)`, [String(end)]);
      return { ...result, more: end < to };
    });
  }

  async function catchUpOnce(): Promise<CatchUpResult> {
    const total: CatchUpResult = { minutes: 0, states: 0, published: 0, raised: 0, cleared: 0 };
    for (const customer of options.customers) {
      if (customer.plants.length === 0) continue;
      for (;;) {
        if (stopped) return total;
        const step = await appendNext(customer);
        if (!step) break;
        total.minutes = Math.max(total.minutes, step.minutes);
        total.states += step.states;
        total.published += step.published;
        total.raised += step.raised;
        total.cleared += step.cleared;
        if (!step.more) break;
        // Let queries waiting for the CPU run between two day-sized transactions.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return total;
  }

  function catchUp(): Promise<CatchUpResult> {
    // One catch-up at a time; a call during one waits for it and then runs its own.
    const next = running.then(catchUpOnce, catchUpOnce);
    running = next.catch(() => undefined);
    return next;
  }

  function scheduleNext() {
    if (stopped || !options.schedule) return;
    const now = Date.now();
    const delay = 60_000 - (now % 60_000) + TICK_DELAY_MS;
    timer = setTimeout(() => {
      catchUp()
        .catch((error: unknown) => log(`[telemetry] demo plant: append failed, retrying next minute: ${error instanceof Error ? error.message : String(error)}`))
        .finally(scheduleNext);
    }, delay);
    timer.unref();
  }

  const started = Date.now();
  const ready = catchUp().then((result) => {
    if (result.states + result.published > 0) {
      log(
        `[telemetry] demo plant caught up: ${result.states.toLocaleString("en-US")} readings written, ${result.published.toLocaleString("en-US")} published, ` +
          `${result.raised} alarms raised, ${result.cleared} cleared in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    return result;
  });
  ready.then(scheduleNext, (error: unknown) => {
    log(`[telemetry] demo plant: catching up failed: ${error instanceof Error ? error.message : String(error)}`);
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
