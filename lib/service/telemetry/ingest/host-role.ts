/**
 * The Sparkplug primary host role across instances (docs/telemetry-ingest.md, "Primary host"): the
 * instance holding the lease (host-lease.ts) runs MQTT ingestion with the role's one persistent
 * session; the others try to take the lease every renewal interval. A holder that dies stops
 * renewing: after the lease's time to live the next instance connects with the same client id,
 * and the broker delivers it everything the dead holder had not acknowledged (it acknowledged
 * only what it had committed, mqtt-ingest.ts), so nothing is lost; what it reads twice is stored
 * once (writer.ts, clickhouse-sink.ts).
 */
import type { HostLease } from "./host-lease";
import type { MqttIngestion } from "./mqtt-ingest";

export interface HostRole {
  /** The ingestion while this instance holds the role, else null. */
  current(): MqttIngestion | null;
  holding(): boolean;
  /** Times this instance took the role. */
  takeovers(): number;
  stop(): Promise<void>;
}

export async function startHostRole(options: { lease: HostLease; start: () => MqttIngestion; log: (line: string) => void }): Promise<HostRole> {
  const { lease, log } = options;
  const renewEvery = Math.max(100, Math.floor(lease.ttlMs / 3));
  let ingestion: MqttIngestion | null = null;
  let takeovers = 0;
  let stopped = false;
  let lastError = "";
  let busy: Promise<void> = Promise.resolve();

  async function step(): Promise<void> {
    if (stopped) return;
    let held: boolean;
    try {
      held = await lease.acquireOrRenew();
      lastError = "";
    } catch (error) {
      // The lease cannot be checked (Redis down): a holder keeps its session (the broker lets one
      // connection hold a client id, so no second reader can appear); a non-holder waits.
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastError) log(`[ingest] the primary host lease cannot be checked: ${message}`);
      lastError = message;
      return;
    }
    if (held && !ingestion) {
      takeovers += 1;
      log(`[ingest] this instance is the Sparkplug primary host${takeovers > 1 ? " again" : ""}`);
      ingestion = options.start();
    } else if (!held && ingestion) {
      log("[ingest] the primary host role went to another instance; stopping ingestion here");
      const ending = ingestion;
      ingestion = null;
      await ending.close();
    }
  }

  await step();
  const timer = setInterval(() => {
    busy = busy.then(step);
  }, renewEvery);
  timer.unref();
  return {
    current: () => ingestion,
    holding: () => ingestion !== null,
    takeovers: () => takeovers,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await busy;
      const ending = ingestion;
      ingestion = null;
      await ending?.close();
      await lease.release();
    },
  };
}
