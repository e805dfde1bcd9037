/**
 * The upstream contract: the embedded implementation (domain functions in process) and the remote
 * one (HTTP to the service's own endpoints, with an operator-issued plant token and telemetry
 * client) answer every case the same — values, and errors with status, code, message and data.
 * Both talk to one service on one database; writes that succeed are compared with their fresh ids
 * and timestamps masked, since each implementation creates its own record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/contract/errors";
import type { MaintenanceOperationId } from "@/modules/maintenance/contract/maintenance";
import type { TTelemetryQueryRequest } from "@/lib/contract/telemetry";
import { createEmbeddedUpstream } from "./embedded";
import { createRemoteUpstream } from "./remote";
import { startServiceServer, type RunningService } from "./testing/servers";
import { httpTransport } from "./transport";
import type { MaintenanceCall, Upstream } from "./types";

let service: RunningService;
let embedded: Upstream;
let remote: Upstream;
let fixture: { task: string; tasks: string[]; part: string; unit: string; tag: string; activityKind: string; priority: string };

beforeAll(async () => {
  service = await startServiceServer();
  const { runtime } = service;
  embedded = createEmbeddedUpstream(runtime);
  const token = (await runtime.plantTokens.issue("RTM1")).token;
  const client = await runtime.telemetry.clients.create("CUST-ACME");
  remote = createRemoteUpstream({
    service: httpTransport(service.url, 80 * 1048576),
    auth: httpTransport(service.url, 80 * 1048576),
    credentials: {
      plants: () => embedded.plants(),
      plantToken: (plantId) => (plantId === "RTM1" ? token : null),
      telemetryClient: () => ({ clientId: client.client_id, clientSecret: client.client_secret, scope: client.scope }),
    },
    timeouts: { maintenanceMs: 10_000, queryMs: 30_000 },
  });
  const store = runtime.maintenance;
  const part = (await store.listParts("RTM1", { page: 1, pageSize: 1 })).data[0]!;
  fixture = {
    task: (await store.listTasks("RTM1", { page: 1, pageSize: 1 })).data[0]!.id,
    tasks: (await store.listTasks("RTM1", { page: 1, pageSize: 20, taskStatus: ["NEED_APPROVAL"] })).data.map((task) => task.id),
    part: part.id,
    unit: part.unit,
    tag: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber,
    activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
    priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
  };
}, 120_000);

afterAll(async () => {
  await service.close();
});

type Outcome = { value: unknown } | { error: { status: number; code: string; message: string; data: unknown[] } };

async function outcome(run: () => Promise<{ value: unknown }>): Promise<Outcome> {
  try {
    return { value: (await run()).value };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: { status: error.status, code: error.code, message: error.message, data: error.data } };
  }
}

/** Fresh ids and instants differ between two successful writes; everything else must not. */
function masked(result: Outcome): Outcome {
  return JSON.parse(
    JSON.stringify(result)
      .replace(/RTM1-T\d{6}/g, "RTM1-T######")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<instant>"),
  ) as Outcome;
}

const both = async (run: (upstream: Upstream) => Promise<{ value: unknown }>) => [masked(await outcome(() => run(embedded))), masked(await outcome(() => run(remote)))];

const q = (query: Record<string, string>) => new URLSearchParams(query);

const MAINTENANCE_CASES: [string, MaintenanceOperationId, () => MaintenanceCall][] = [
  ["jobs done, page 2", "listJobsDone", () => ({ plantId: "RTM1", query: q({ page: "2", pageSize: "3" }) })],
  ["jobs done, reversed dates", "listJobsDone", () => ({ plantId: "RTM1", query: q({ startDate: "2026-05-02", endDate: "2026-05-01" }) })],
  ["jobs done, pageSize 0", "listJobsDone", () => ({ plantId: "RTM1", query: q({ pageSize: "0" }) })],
  ["planned jobs of an asset", "listJobsPlanned", () => ({ plantId: "RTM1", query: q({ assetTagNumber: fixture.tag, pageSize: "5" }) })],
  ["assets", "listAssets", () => ({ plantId: "RTM1", query: q({ pageSize: "5" }) })],
  ["tasks of two statuses", "listTasks", () => ({ plantId: "RTM1", query: q({ taskStatus: "PENDING,CLOSED", pageSize: "5" }) })],
  ["tasks of an unknown status", "listTasks", () => ({ plantId: "RTM1", query: q({ taskStatus: "WRONG" }) })],
  ["one task", "getTask", () => ({ plantId: "RTM1", params: { taskId: fixture.task } })],
  ["an unknown task", "getTask", () => ({ plantId: "RTM1", params: { taskId: "RTM1-T999999" } })],
  ["a malformed task id", "getTask", () => ({ plantId: "RTM1", params: { taskId: "bad id!" } })],
  ["a task's history", "listTaskTransitions", () => ({ plantId: "RTM1", params: { taskId: fixture.task } })],
  ["lookup values of one kind", "listLookupValues", () => ({ plantId: "RTM1", query: q({ kind: "priority" }) })],
  ["short parts", "listParts", () => ({ plantId: "RTM1", query: q({ isShort: "true", pageSize: "5" }) })],
  ["a part's stock history", "listStockLevels", () => ({ plantId: "RTM1", params: { partId: fixture.part } })],
  ["an unknown part's history", "listStockLevels", () => ({ plantId: "RTM1", params: { partId: "NOPE" } })],
  ["a plant that does not exist", "listAssets", () => ({ plantId: "NOPE1" })],
  ["a task without a title", "createTask", () => ({ plantId: "RTM1", body: { activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } } })],
  ["a task for an unknown asset", "createTask", () => ({ plantId: "RTM1", body: { taskTitle: "x", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: "NO-SUCH-TAG" } } })],
  ["a task with an unconfigured priority", "createTask", () => ({ plantId: "RTM1", body: { taskTitle: "x", activityKind: fixture.activityKind, priority: "WHENEVER", asset: { tagNumber: fixture.tag } } })],
  ["a task due before it was created", "createTask", () => ({ plantId: "RTM1", body: { taskTitle: "x", activityKind: fixture.activityKind, priority: fixture.priority, createdDate: "2026-05-02", dueDate: "2026-05-01", asset: { tagNumber: fixture.tag } } })],
  ["a task", "createTask", () => ({ plantId: "RTM1", body: { taskTitle: "Contract task", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } } })],
  ["a move that is not allowed", "transitionTask", () => ({ plantId: "RTM1", params: { taskId: fixture.tasks[0]! }, body: { to: "NEED_CONFIRMATION" } })],
  ["a move to an unknown status", "transitionTask", () => ({ plantId: "RTM1", params: { taskId: fixture.tasks[0]! }, body: { to: "DONE" } })],
  ["a move of an unknown task", "transitionTask", () => ({ plantId: "RTM1", params: { taskId: "RTM1-T999999" }, body: { to: "PENDING" } })],
  ["a count in the wrong unit", "submitStockLevel", () => ({ plantId: "RTM1", params: { partId: fixture.part }, body: { id: fixture.part, quantity: 3, unit: fixture.unit === "KG" ? "PCS" : "KG" } })],
  ["a count for another part's id", "submitStockLevel", () => ({ plantId: "RTM1", params: { partId: fixture.part }, body: { id: "OTHER", quantity: 3, unit: fixture.unit } })],
  ["a negative count", "submitStockLevel", () => ({ plantId: "RTM1", params: { partId: fixture.part }, body: { id: fixture.part, quantity: -1, unit: fixture.unit } })],
  ["a count", "submitStockLevel", () => ({ plantId: "RTM1", params: { partId: fixture.part }, body: { id: fixture.part, quantity: 12, unit: fixture.unit, remark: "contract" } })],
];

describe("maintenance: embedded and remote answer alike", () => {
  it.each(MAINTENANCE_CASES)("%s", async (_, id, call) => {
    const [fromEmbedded, fromRemote] = await both((upstream) => upstream.maintenance(id, call()));
    expect(fromEmbedded).toEqual(fromRemote);
  });

  it("a move that is allowed, each on a task of its own", async () => {
    const [first, second] = fixture.tasks.slice(1, 3) as [string, string];
    const fromEmbedded = masked(await outcome(() => embedded.maintenance("transitionTask", { plantId: "RTM1", params: { taskId: first }, body: { to: "PENDING", remark: "ok" } })));
    const fromRemote = masked(await outcome(() => remote.maintenance("transitionTask", { plantId: "RTM1", params: { taskId: second }, body: { to: "PENDING", remark: "ok" } })));
    expect(JSON.stringify(fromEmbedded).replace(first, "T")).toEqual(JSON.stringify(fromRemote).replace(second, "T"));
    expect(fromEmbedded).toMatchObject({ value: { status: "SUCCESS" } });
  });

  it("a repeated task creation with one Idempotency-Key creates one task in either", async () => {
    for (const upstream of [embedded, remote]) {
      const call = { plantId: "RTM1", idempotencyKey: `contract-${upstream.mode}`, body: { taskTitle: "Once", activityKind: fixture.activityKind, priority: fixture.priority, asset: { tagNumber: fixture.tag } } };
      const first = await upstream.maintenance("createTask", call);
      const again = await upstream.maintenance("createTask", call);
      expect(again.value).toEqual(first.value);
    }
  });
});

describe("telemetry: embedded and remote answer alike", () => {
  const range = () => ({ startTime: new Date(Date.now() - 6 * 3_600_000).toISOString(), endTime: new Date().toISOString() });
  const cases: [string, () => TTelemetryQueryRequest][] = [
    ["a summary", () => ({ query: "States | summarize n = count() by PlantId | order by PlantId asc", ...range() })],
    ["rows of one plant", () => ({ query: "States | where Name == 'Temperature' | project DeviceId, Value | order by DeviceId asc | take 3", plantIds: ["RTM1"], ...range() })],
    ["a syntax error", () => ({ query: "States\n| wher x", ...range() })],
    ["an unknown column", () => ({ query: "States | project Nope", ...range() })],
    ["a plant of another customer", () => ({ query: "States | take 1", plantIds: ["OUL1"], ...range() })],
  ];
  it.each(cases)("%s", async (_, request) => {
    const body = request();
    const [fromEmbedded, fromRemote] = await both((upstream) => upstream.telemetryQuery(body, { customerId: "CUST-ACME", userKey: "contract" }));
    expect(fromEmbedded).toEqual(fromRemote);
  });
});
