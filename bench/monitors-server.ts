/**
 * The server process of bench/monitors.ts (apart from the load generator, so they do not share an
 * event loop): the embedded service at its spec paths, the dashboard's store with BENCH_MONITORS
 * monitors (every 1m) spread over the demo plants, and the monitors' schedule as scripts/serve.ts
 * runs it (MONITOR_CONCURRENCY places, polling every second). Prints `{"port": N, "token": "…"}`
 * once listening; `GET /bench/evaluations?tick=<ms>` answers the lags (tick → done, ms) of the
 * evaluations of that tick that ended, and how many of them failed (e.g. 429: the plant's
 * monitors spent their telemetry cost budget).
 */
import { register } from "node:module";

// modules/monitors/service and lib/upstream are marked "server-only"; resolve it as the server does (scripts/serve.ts).
register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(specifier, context, nextResolve) {
      if (specifier !== "server-only") return nextResolve(specifier, context);
      return nextResolve(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
    }`),
);

const http = await import("node:http");
const { getConfig } = await import("../lib/config");
const { nodeListener } = await import("../lib/platform/http/node-adapter");
const { createServiceRuntime } = await import("../lib/service/runtime");
const { openDashboardSql } = await import("../lib/dashboard-store/database");
const { createMonitor } = await import("@/modules/monitors/store/monitors");
const { upsertUser } = await import("@/lib/dashboard-store/users");
const { createEmbeddedUpstream } = await import("../lib/upstream/embedded");
const { MonitorScheduler } = await import("@/modules/monitors/service/scheduler");

const config = getConfig();
const count = Number(process.env.BENCH_MONITORS ?? 200);
const runtime = await createServiceRuntime(config);
const db = await openDashboardSql(config);
const token = (await runtime.plantTokens.issue("RTM1")).token;

// Most monitors look for something that is not there (a threshold nobody crosses); one in ten
// fires on two devices, so the run also opens tasks once and then checks them at every tick.
const plants = ["RTM1", "HOU1", "OUL1"];
// A monitor acts as its author (modules/monitors/service/author.ts): the bench's author is an engineer of every plant.
await upsertUser(db, { email: "bench@plantdesk.test", role: "engineer", plants: "*" });
for (let index = 0; index < count; index += 1) {
  const plantId = plants[index % plants.length]!;
  const store = runtime.maintenance;
  const fires = index % 10 === 0;
  await createMonitor(db, plantId, {
    name: `Bench monitor ${index}`,
    query: `States | where Name == "${["Temperature", "Vibration", "MotorCurrent"][index % 3]}" | summarize MaxValue = max(todouble(Value)) by DeviceId | where MaxValue > ${fires ? -1000 : 100000 + index}${fires ? " | top 2 by DeviceId asc" : ""}`,
    keyColumns: ["DeviceId"],
    every: "1m",
    lookback: "15m",
    task: {
      taskTitle: "Bench {DeviceId}",
      activityKind: (await store.allowedLookupValues(plantId, "activityKind"))[0]!,
      priority: (await store.allowedLookupValues(plantId, "priority"))[0]!,
      assignedToRole: (await store.allowedLookupValues(plantId, "assignedToRole"))[0]!,
      dueInDays: 1,
    },
    enabled: true,
  }, "bench@plantdesk.test");
}

const ended = new Map<number, number[]>();
const failed = new Map<number, number>();
const scheduler = new MonitorScheduler(
  { db, upstream: createEmbeddedUpstream(runtime), notifier: { smtpUrl: null, smtpFrom: "bench@localhost", allowPrivateWebhooks: false } },
  {
    concurrency: config.dashboard.monitors.concurrency,
    pollMs: 1000,
    onEvaluated: ({ tickAt, doneAt, ok }) => {
      ended.set(tickAt, [...(ended.get(tickAt) ?? []), doneAt - tickAt]);
      if (!ok) failed.set(tickAt, (failed.get(tickAt) ?? 0) + 1);
    },
  },
);
scheduler.start();

const service = nodeListener(runtime.handle, "http://localhost");
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/bench/evaluations") {
    const tick = Number(url.searchParams.get("tick"));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ lags: ended.get(tick) ?? [], failed: failed.get(tick) ?? 0 }));
    return;
  }
  service(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: (server.address() as import("node:net").AddressInfo).port, token })));
process.once("SIGTERM", () => {
  server.close();
  void scheduler.stop().then(async () => {
    await db.close();
    await runtime.close();
    process.exit(0);
  });
});
