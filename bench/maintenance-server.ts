/**
 * A server process for bench/maintenance.ts (run separately so the load generator does not share
 * its event loop). Prints `{"port": N}` once listening.
 *   service   node:http + the service listener + runtime.handle: the path scripts/serve.ts uses
 *             for the spec's paths (adapter, router, token check, rate limit, validation).
 *   baseline  bare node:http calling the same lib/service function for the jobs-done page and
 *             JSON.stringify: what this machine can do at all.
 *   plans     the service path with 1,000 weekly maintenance plans on RTM1's machines, and
 *             `GET /bench/tick`, which runs one tick of the plans' scheduler to its end and answers
 *             its report and duration.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getConfig } from "../lib/config";
import { nodeListener } from "../lib/platform/http/node-adapter";
import { jobsDonePage } from "@/modules/maintenance/service/reads";
import { createServiceRuntime } from "../lib/service/runtime";

const mode = process.argv[2];
const runtime = await createServiceRuntime(getConfig());

/** 1,000 weekly plans, due over the coming week (lead time 7 days): the first tick opens their tasks. */
async function seedPlans(count: number): Promise<void> {
  const ctx = runtime.maintenanceContext;
  const machines = (await runtime.maintenance.listAssets("RTM1", { page: 1, pageSize: 1000 })).data.filter((a) => a.assetType !== "AREA" && a.assetType !== "LINE");
  const kinds = await runtime.maintenance.allowedLookupValues("RTM1", "activityKind");
  const roles = await runtime.maintenance.allowedLookupValues("RTM1", "assignedToRole");
  const priorities = await runtime.maintenance.allowedLookupValues("RTM1", "priority");
  const today = ctx.today();
  for (let i = 0; i < count; i++) {
    const asset = machines[i % machines.length]!;
    const startDate = new Date(Date.parse(`${today}T00:00:00Z`) + (i % 7) * 86_400_000).toISOString().slice(0, 10);
    await ctx.plans.insertPlan("RTM1", `PM-bench-${i}`, {
      title: `Bench plan ${i}`,
      description: null,
      assetTagNumber: asset.tagNumber,
      activityKind: kinds[0]!,
      assignedToRole: roles[0]!,
      priority: priorities[0]!,
      estimatedTimeInHours: 1,
      requiredPersonCount: 1,
      trigger: { kind: "CALENDAR", every: 1, unit: "WEEK", startDate },
      leadTimeDays: 7,
      schedule: "FIXED",
      checklist: [{ text: "Done", kind: "CHECK", required: true }],
      enabled: true,
    }, asset.id, today, new Date().toISOString());
  }
}

async function benchTick(res: http.ServerResponse): Promise<void> {
  const started = performance.now();
  // The tick's lease refuses a second tick within PLANS_TICK_MS: wait for the next one.
  let report = await runtime.planScheduler.tick();
  while (!report.ran) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    report = await runtime.planScheduler.tick();
  }
  const body = JSON.stringify({ ms: Math.round(performance.now() - started), evaluated: report.evaluated, opened: report.opened.length, failed: report.failed });
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
}

if (mode === "plans") {
  // Exactly the 1,000 bench plans are evaluated: the demo seed's own plans (seed-plans.ts) are switched off here.
  await runtime.sql.run(`UPDATE maintenance_plans SET enabled = 0`);
  await seedPlans(1000);
}
const serviceListener = nodeListener(runtime.handle, "http://localhost");

const listener =
  mode === "service"
    ? serviceListener
    : mode === "plans"
      ? (req: http.IncomingMessage, res: http.ServerResponse) => (req.url === "/bench/tick" ? void benchTick(res) : serviceListener(req, res))
    : mode === "baseline"
      ? async (req: http.IncomingMessage, res: http.ServerResponse) => {
          const query = Object.fromEntries(new URL(req.url ?? "/", "http://localhost").searchParams);
          const body = JSON.stringify(await jobsDonePage(runtime.maintenance, "RTM1", query));
          res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
          res.end(body);
        }
      : undefined;
if (!listener) {
  console.error("usage: maintenance-server.ts service|baseline|plans");
  process.exit(2);
}

const server = http.createServer(listener);
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.once("SIGTERM", () => {
  server.close();
  void runtime.close().then(() => process.exit(0));
});
