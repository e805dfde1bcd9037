import "server-only";
/**
 * One evaluation of a monitor at time t (docs/api.md, "Monitors"): its query over [t − lookback, t)
 * on its plant through the upstream (embedded or a remote service, with the dashboard's telemetry
 * credentials and a budget of the monitor's plant), each distinct key a firing; a new firing opens
 * one task through the maintenance interface, a key still covered by an open task opens nothing,
 * a key no longer returned is resolved. The same query checks run at save (checkMonitorDefinition)
 * and in the preview, which replays evaluations and opens nothing.
 */
import { compileKql, KqlError, type ResultColumn } from "@/lib/kql";
import { SCHEMA_ONLY_SOURCES } from "@/lib/kql/diagnose";
import { getConfig } from "@/lib/config";
import { ApiError, invalidInput } from "@/lib/contract/errors";
import { MONITOR_LIMITS, timespanMs, type TMonitorInput, type TMonitorPreview, type TMonitorPreviewRequest, type TMonitorRun } from "@/modules/monitors/contract/monitors";
import { mutedAt } from "@/modules/monitors/contract/mute-windows";
import type { TTelemetryQueryResponse } from "@/lib/contract/telemetry";
import {
  activeFirings,
  lastFiringWithTask,
  openFiring,
  resolveFiring,
  setFiringOutcome,
  type StoredFiring,
  type StoredMonitor,
} from "@/modules/monitors/store/monitors";
import type { SqlDb } from "@/lib/platform/sql";
import type { Upstream } from "@/lib/upstream";
import { clip, fillTemplate, templateColumns } from "../contract/template";

export interface MonitorDeps {
  db: SqlDb;
  upstream: Upstream;
}

/** What a monitor query needs of a monitor; the preview has no stored one. */
type QuerySpec = Pick<StoredMonitor, "plantId" | "query" | "keyColumns" | "lookbackMs">;

function invalidQuery(error: KqlError): ApiError {
  return new ApiError("INVALID_QUERY", `${error.detail} (line ${error.line}, column ${error.column})`, [{ line: error.line, column: error.column, message: error.detail }]);
}

/** The result columns of a query, from the compiler alone (no data read); bad KQL → 400 INVALID_QUERY with line and column. */
function resultColumns(query: string): ResultColumn[] {
  try {
    return compileKql(query, { sources: SCHEMA_ONLY_SOURCES }).columns;
  } catch (error) {
    if (error instanceof KqlError) throw invalidQuery(error);
    throw error;
  }
}

function checkKeyColumns(columns: readonly ResultColumn[], keyColumns: readonly string[]): void {
  const names = new Set(columns.map((column) => column.name));
  const missing = keyColumns.filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw invalidInput(`The query's result has no column ${missing.map((name) => `'${name}'`).join(", ")}; it returns ${[...names].join(", ") || "no columns"}.`, [
      ...missing.map((name) => ({ field: "keyColumns", problem: `the result has no column '${name}'` })),
    ]);
  }
}

/**
 * The save-time checks: the query compiles, the key columns and the template's `{Column}` names
 * are result columns, and without an asset tag the result says which device (DeviceId) fired.
 */
export function checkMonitorDefinition(input: Pick<TMonitorInput, "query" | "keyColumns" | "task">): void {
  const columns = resultColumns(input.query);
  checkKeyColumns(columns, input.keyColumns);
  const names = new Set(columns.map((column) => column.name));
  const problems = (["taskTitle", "taskDescription"] as const).flatMap((field) =>
    templateColumns(input.task[field] ?? "")
      .filter((name) => !names.has(name))
      .map((name) => ({ field: `task.${field}`, problem: `{${name}} is not a column of the result` })),
  );
  if (!input.task.assetTagNumber && !names.has("DeviceId")) {
    problems.push({ field: "task.assetTagNumber", problem: "needed unless the result has a DeviceId column (its asset is then the device's)" });
  }
  if (problems.length > 0) throw invalidInput(`Invalid monitor: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
}

interface ResultRows {
  columns: string[];
  rows: Record<string, unknown>[];
}

/** Who pays for a monitor query: a key of its own, and for a stored monitor the plant's monitors' budget it lies within. */
type Payer = { userKey: string; budget?: { perMinute: number; within: string } };

/** A stored monitor's budget: its own, within its plant's monitors' (docs/api.md, "Monitors"). */
function monitorPayer(monitor: Pick<StoredMonitor, "id" | "plantId">): Payer {
  return { userKey: `monitor-${monitor.id}`, budget: { perMinute: getConfig().dashboard.monitors.costBudgetPerMinute, within: `monitors-${monitor.plantId}` } };
}

/** A query without a `set query_now` of its own gets the evaluation's moment as its `now()`: `ago()` counts back from `at`. */
function atMoment(query: string, at: number): string {
  return /^\s*set\s+query_now\b/im.test(query) ? query : `set query_now = datetime(${new Date(at).toISOString()});\n${query}`;
}

/** The monitor's query over [at − lookback, at) on its plant, with `now()` at `at`. */
async function queryWindow(deps: MonitorDeps, spec: QuerySpec, at: number, payer: Payer, query = spec.query): Promise<ResultRows> {
  const plant = deps.upstream.plants().find((candidate) => candidate.id === spec.plantId);
  if (!plant) throw new ApiError("PLANT_NOT_FOUND", `Plant ${spec.plantId} is not served by this dashboard.`);
  const result = await deps.upstream.telemetryQuery(
    { query: atMoment(query, at), startTime: new Date(at - spec.lookbackMs).toISOString(), endTime: new Date(at).toISOString(), plantIds: [spec.plantId] },
    { customerId: plant.customerId, ...payer },
  );
  const data = (result.value as TTelemetryQueryResponse).data;
  const columns = data.columns.map((column) => column.name);
  return { columns, rows: data.rows.map((values) => Object.fromEntries(columns.map((name, index) => [name, values[index]]))) };
}

interface Keyed {
  keyText: string;
  key: Record<string, unknown>;
  row: Record<string, unknown>;
}

/** Distinct keys of a result, first row of each; more than MONITOR_LIMITS.maxKeys is an error, never a storm of tasks. */
function keysOf(result: ResultRows, keyColumns: readonly string[]): Map<string, Keyed> {
  checkKeyColumns(result.columns.map((name) => ({ name, kqlType: "string" })) as ResultColumn[], keyColumns);
  const keys = new Map<string, Keyed>();
  for (const row of result.rows) {
    const values = keyColumns.map((name) => row[name] ?? null);
    const keyText = JSON.stringify(values);
    if (keys.has(keyText)) continue;
    if (keys.size >= MONITOR_LIMITS.maxKeys) {
      throw new ApiError("QUERY_LIMIT_EXCEEDED", `The query returned more than ${MONITOR_LIMITS.maxKeys} distinct keys; narrow it (a monitor opens at most ${MONITOR_LIMITS.maxKeys} tasks at once).`);
    }
    keys.set(keyText, { keyText, key: Object.fromEntries(keyColumns.map((name, index) => [name, values[index]])), row });
  }
  return keys;
}

/** A KQL string literal of any text. */
function kqlString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

function topologyReference(metadata: unknown): string | null {
  const object = typeof metadata === "string" ? (() => { try { return JSON.parse(metadata) as unknown; } catch { return null; } })() : metadata;
  const reference = (object as { topologyReference?: unknown } | null)?.topologyReference;
  return typeof reference === "string" && reference ? reference : null;
}

/**
 * The asset each new firing's task is for: the template's tag, else the asset the row's device
 * measures (MessageMetadata.topologyReference, docs/api.md §6), from the row itself when it carries
 * MessageMetadata, else from one query for all devices of this evaluation.
 */
async function assetsFor(deps: MonitorDeps, monitor: StoredMonitor, rows: Keyed[], at: number): Promise<Map<string, string | null>> {
  const assets = new Map<string, string | null>();
  if (monitor.task.assetTagNumber) {
    for (const item of rows) assets.set(item.keyText, monitor.task.assetTagNumber);
    return assets;
  }
  const devices = new Map<string, string | null>();
  for (const item of rows) {
    const device = typeof item.row.DeviceId === "string" ? item.row.DeviceId : null;
    if (device && !devices.has(device)) devices.set(device, topologyReference(item.row.MessageMetadata));
  }
  const unknown = [...devices].filter(([, reference]) => reference === null).map(([device]) => device);
  if (unknown.length > 0) {
    const lookup = `States | where DeviceId in (${unknown.map(kqlString).join(", ")}) | summarize arg_max(Timestamp, MessageMetadata) by DeviceId | project DeviceId, Ref = tostring(MessageMetadata.topologyReference)`;
    const found = await queryWindow(deps, monitor, at, monitorPayer(monitor), lookup);
    for (const row of found.rows) if (typeof row.DeviceId === "string" && typeof row.Ref === "string" && row.Ref) devices.set(row.DeviceId, row.Ref);
  }
  for (const item of rows) assets.set(item.keyText, typeof item.row.DeviceId === "string" ? (devices.get(item.row.DeviceId) ?? null) : null);
  return assets;
}

/** Where a person finds the monitor: the dashboard's public address when configured, else its path. */
export function monitorLink(monitor: Pick<StoredMonitor, "plantId" | "id">): string {
  const base = getConfig().dashboard.nextAuthUrl?.replace(/\/+$/, "") ?? "";
  return `${base}/plants/${encodeURIComponent(monitor.plantId)}/monitors?monitor=${monitor.id}`;
}

/** The line that records in a task that a monitor opened it (the task drawer recognises it). */
function monitorMarker(monitor: Pick<StoredMonitor, "plantId" | "id" | "name">): string {
  return `Opened by monitor "${clip(monitor.name.replace(/\p{Cc}/gu, " "), 120)}" (#${monitor.id}): ${monitorLink(monitor)}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Opens the task of a new firing; a refusal is recorded on the firing, and retried at the next evaluation. */
async function openTask(deps: MonitorDeps, monitor: StoredMonitor, firing: StoredFiring, row: Record<string, unknown>, assetTag: string | null, at: number) {
  if (!assetTag) {
    const device = typeof row.DeviceId === "string" ? row.DeviceId : "(none)";
    return { taskId: null, problem: `No asset is known for device ${clip(device, 80)} (no MessageMetadata.topologyReference in the window).` };
  }
  const template = monitor.task;
  const description = [template.taskDescription ? fillTemplate(template.taskDescription, row, 3000) : null, monitorMarker(monitor)].filter(Boolean).join("\n\n");
  try {
    const result = await deps.upstream.maintenance("createTask", {
      plantId: monitor.plantId,
      body: {
        taskTitle: fillTemplate(template.taskTitle, row, 200),
        taskDescription: description,
        activityKind: template.activityKind,
        priority: template.priority,
        assignedToRole: template.assignedToRole,
        dueDate: isoDate(Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + template.dueInDays)),
        asset: { tagNumber: assetTag },
        by: clip(`Monitor "${monitor.name.replace(/\p{Cc}/gu, " ")}" (#${monitor.id})`, 300),
      },
      // The firing's own key: a retry after a crash or a timeout opens no second task.
      idempotencyKey: `monitor-${monitor.id}-firing-${firing.id}`,
    });
    const id = (result.value as { data: { id?: unknown }[] }).data[0]?.id;
    return typeof id === "string" ? { taskId: id, problem: null } : { taskId: null, problem: "The service answered without a task id." };
  } catch (error) {
    if (error instanceof ApiError) return { taskId: null, problem: clip(`The service refused the task: ${error.message}`, 500) };
    throw error;
  }
}

/** Open unless the service says it is closed (or gone). */
async function taskIsOpen(deps: MonitorDeps, plantId: string, taskId: string): Promise<boolean> {
  try {
    const task = await deps.upstream.maintenance("getTask", { plantId, params: { taskId } });
    return (task.value as { status: string }).status !== "CLOSED";
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

export interface Evaluation extends TMonitorRun {
  opened: number;
  resolved: number;
}

/**
 * Evaluates `monitor` at `at`, as the schedule does. Throws on a failed query (the caller records
 * it); a task the service refuses is recorded on its firing instead.
 */
export async function evaluateMonitor(deps: MonitorDeps, monitor: StoredMonitor, at: number): Promise<Evaluation> {
  const evaluatedAt = new Date(at).toISOString();
  // A mute window records what fired and opens nothing: its firings wait without a task, and the
  // first evaluation after the window opens the work of those that still hold (docs/api.md, "Monitors").
  const muted = mutedAt(monitor.mutes, at) !== null;
  const keys = keysOf(await queryWindow(deps, monitor, at, monitorPayer(monitor)), monitor.keyColumns);
  const active = new Map((await activeFirings(deps.db, monitor.id)).map((firing) => [firing.keyText, firing]));
  const firings: TMonitorRun["firings"] = [];
  let opened = 0;
  let resolved = 0;

  // Keys gone from the result: resolved (the task is left for people to close).
  for (const firing of active.values()) {
    if (keys.has(firing.keyText)) continue;
    if (await resolveFiring(deps.db, firing.id, evaluatedAt)) {
      resolved += 1;
      firings.push({ key: firing.key, state: "resolved", taskId: firing.taskId, assetTagNumber: firing.assetTag });
    }
  }

  const toOpen: Keyed[] = [];
  for (const item of keys.values()) {
    const current = active.get(item.keyText);
    if (current?.taskId) {
      if (await taskIsOpen(deps, monitor.plantId, current.taskId)) {
        firings.push({ key: current.key, state: "open", taskId: current.taskId });
        continue;
      }
      // Its task was closed while the condition held: that firing ends, a new one opens new work.
      await resolveFiring(deps.db, current.id, evaluatedAt);
      toOpen.push(item);
    } else if (current) {
      toOpen.push(item); // a task the service refused last time: try again, with the same firing
    } else {
      // The key is back while the task of its last firing is still open: that task covers it.
      const last = await lastFiringWithTask(deps.db, monitor.id, item.keyText);
      if (last?.taskId && (await taskIsOpen(deps, monitor.plantId, last.taskId))) {
        const again = await openFiring(deps.db, monitor, { keyText: item.keyText, key: item.key, assetTag: last.assetTag, openedAt: evaluatedAt, taskId: last.taskId, problem: null });
        firings.push({ key: item.key, state: "open", taskId: again?.taskId ?? last.taskId });
        continue;
      }
      toOpen.push(item);
    }
  }

  if (toOpen.length > 0 && muted) {
    for (const item of toOpen) {
      if (!active.get(item.keyText)) await openFiring(deps.db, monitor, { keyText: item.keyText, key: item.key, assetTag: null, openedAt: evaluatedAt, taskId: null, problem: null });
      firings.push({ key: item.key, state: "muted", taskId: null });
    }
  } else if (toOpen.length > 0) {
    const assets = await assetsFor(deps, monitor, toOpen, at);
    for (const item of toOpen) {
      const retry = active.get(item.keyText);
      const firing = retry && !retry.taskId
        ? retry
        : await openFiring(deps.db, monitor, { keyText: item.keyText, key: item.key, assetTag: assets.get(item.keyText) ?? null, openedAt: evaluatedAt, taskId: null, problem: null });
      if (!firing) {
        // Another evaluation (a manual run beside the schedule) opened this key a moment ago.
        firings.push({ key: item.key, state: "open", taskId: null });
        continue;
      }
      const assetTag = assets.get(item.keyText) ?? null;
      const outcome = await openTask(deps, monitor, firing, item.row, assetTag, at);
      await setFiringOutcome(deps.db, firing.id, { ...outcome, assetTag });
      if (outcome.taskId) opened += 1;
      firings.push({ key: item.key, state: outcome.taskId ? "opened" : "open", taskId: outcome.taskId, assetTagNumber: assetTag });
    }
  }
  return { evaluatedAt, firings, opened, resolved, ...(muted ? { muted: true } : {}) };
}

/** The firing problems of an evaluation, as the monitor shows them (null: none). */
export async function firingProblems(deps: MonitorDeps, monitorId: number): Promise<string | null> {
  const problems = (await activeFirings(deps.db, monitorId)).filter((firing) => firing.problem).map((firing) => firing.problem!);
  if (problems.length === 0) return null;
  return clip(`${problems.length} firing${problems.length === 1 ? "" : "s"} without a task: ${problems[0]}`, 1000);
}

/** Evaluations a preview would replay: one per `every` step ending at `to`. */
function previewTimes(request: Pick<TMonitorPreviewRequest, "every" | "from" | "to">): number[] {
  const every = timespanMs(request.every)!;
  const from = Date.parse(request.from);
  const to = Date.parse(request.to);
  const count = Math.floor((to - from) / every);
  if (count > MONITOR_LIMITS.maxPreviewEvaluations) {
    throw invalidInput(
      `A preview replays at most ${MONITOR_LIMITS.maxPreviewEvaluations} evaluations; from…to every ${request.every} is ${count}. Choose a shorter range or a longer step.`,
      [{ field: "every", problem: `${count} evaluations; at most ${MONITOR_LIMITS.maxPreviewEvaluations}` }],
    );
  }
  if (count < 1) throw invalidInput("The range is shorter than one step; choose a longer range or a shorter step.", [{ field: "to", problem: "less than one step after from" }]);
  return Array.from({ length: count }, (_, index) => to - (count - 1 - index) * every);
}

/** The monitor replayed at each step of [from, to]: which keys each evaluation would return. Opens nothing. */
export async function previewMonitor(deps: MonitorDeps, plantId: string, request: TMonitorPreviewRequest, budgetKey: string): Promise<TMonitorPreview> {
  checkKeyColumns(resultColumns(request.query), request.keyColumns);
  const times = previewTimes(request);
  const spec: QuerySpec = { plantId, query: request.query, keyColumns: request.keyColumns, lookbackMs: timespanMs(request.lookback)! };
  const results: Map<string, Keyed>[] = new Array(times.length);
  // Two at a time: the user's own telemetry places (TELEMETRY_MAX_CONCURRENT_PER_CLIENT) bound it anyway.
  let next = 0;
  const worker = async () => {
    while (next < times.length) {
      const index = next++;
      results[index] = keysOf(await queryWindow(deps, spec, times[index]!, { userKey: budgetKey }), request.keyColumns);
    }
  };
  await Promise.all([worker(), worker()]);
  const firings: TMonitorPreview["firings"] = [];
  results.forEach((keys, index) => {
    for (const item of keys.values()) firings.push({ at: new Date(times[index]!).toISOString(), key: item.key, new: !(results[index - 1]?.has(item.keyText) ?? false) });
  });
  return { evaluations: times.length, times: times.map((time) => new Date(time).toISOString()), firings };
}
