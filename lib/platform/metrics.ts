/**
 * The server's Prometheus metrics (`GET /metrics`, README "Operating"): one prom-client registry
 * per process. Labels are bounded: a route is the router's pattern
 * (`/api/plants/{plantId}/tasks`), never the raw path, so a client cannot grow the series.
 * Gauges of things owned above the kernel (ingest, monitors, pools) are read when scraped, through
 * `addScrapeHook`, which the assembly (scripts/serve.ts) fills.
 */
import type { ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

function createMetrics() {
  const registry = new Registry();
  const hooks: (() => void | Promise<void>)[] = [];
  const registers = [registry];
  return {
    registry,
    hooks,
    httpRequests: new Counter({ name: "plantdesk_http_requests_total", help: "HTTP requests answered, by surface, route pattern, method and status.", labelNames: ["surface", "route", "method", "status"], registers }),
    httpDuration: new Histogram({
      name: "plantdesk_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by surface and route pattern.",
      labelNames: ["surface", "route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    admission: new Counter({ name: "plantdesk_admission_refused_total", help: "Requests refused at the front door (429) because their principal's pool was full, by pool kind.", labelNames: ["pool"], registers }),
    admissionInUse: new Gauge({ name: "plantdesk_admission_in_use", help: "Requests holding (running) or waiting for (waiting) a place at the front door, by pool kind.", labelNames: ["pool", "state"], registers }),
    telemetryQueries: new Counter({ name: "plantdesk_telemetry_queries_total", help: "Telemetry queries finished, by outcome (ok or the error code).", labelNames: ["outcome"], registers }),
    telemetryCost: new Counter({ name: "plantdesk_telemetry_query_cost_total", help: "Cost units charged to telemetry budgets.", registers }),
    telemetryThrottled: new Counter({ name: "plantdesk_telemetry_throttled_total", help: "Telemetry queries refused or stopped by a throttle, by which (budget, places).", labelNames: ["throttle"], registers }),
    planTickLag: new Histogram({
      name: "plantdesk_plan_tick_lag_seconds",
      help: "How late each maintenance plans' tick this instance ran started its evaluation, after the time it was due (a tick still running when the next was due makes that one late).",
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    planTickDuration: new Histogram({ name: "plantdesk_plan_tick_duration_seconds", help: "How long each maintenance plans' tick took to evaluate every enabled plan.", buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300], registers }),
    monitorEvaluationLag: new Histogram({
      name: "plantdesk_monitor_evaluation_lag_seconds",
      help: "Monitor evaluations: from the tick they were due at to their start (stage=start, waiting for a place) and to their end (stage=done).",
      labelNames: ["stage"],
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900],
      registers,
    }),
    gauge(name: string, help: string, labelNames: string[] = []) {
      return new Gauge({ name, help, labelNames, registers });
    },
  };
}

type Metrics = ReturnType<typeof createMetrics>;

let processMetrics: Metrics | undefined;

export function metrics(): Metrics {
  processMetrics ??= createMetrics();
  return processMetrics;
}

/** Runs `hook` before each scrape (it sets gauges from the state it reads). */
export function addScrapeHook(hook: () => void | Promise<void>): void {
  metrics().hooks.push(hook);
}

/** The text exposition of every metric, after the scrape hooks; a failing hook leaves its gauges as they were. */
export async function scrape(): Promise<{ contentType: string; text: string }> {
  const { registry, hooks } = metrics();
  await Promise.all(hooks.map(async (hook) => {
    try {
      await hook();
    } catch {
      // a source that cannot be read now keeps its last values
    }
  }));
  return { contentType: registry.contentType, text: await registry.metrics() };
}

const routeOf = new WeakMap<ServerResponse, string>();

/** Which route pattern answered a Node response (set by the routers' adapter, read by the request log). */
export function labelRoute(res: ServerResponse, pattern: string): void {
  routeOf.set(res, pattern);
}

export function routeLabel(res: ServerResponse): string | undefined {
  return routeOf.get(res);
}
