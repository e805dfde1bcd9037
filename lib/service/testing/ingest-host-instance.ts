/**
 * Test support: one service instance with its live parts (MQTT ingestion, the primary host role)
 * and nothing else — no web server — configured from the environment like the server, so the
 * failover test can run two of them as processes and kill one (SIGKILL: no goodbye of any kind).
 * Prints `host-instance ready` once started; a graceful SIGTERM closes it.
 */
import { parseConfig } from "@/lib/config";
import { createServiceRuntime } from "../runtime";

const runtime = await createServiceRuntime(parseConfig(process.env), { live: { schedule: false } });
console.log("host-instance ready");
process.on("SIGTERM", () => {
  void runtime.close().then(() => process.exit(0));
});
