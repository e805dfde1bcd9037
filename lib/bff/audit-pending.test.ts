/**
 * The audit row of a write through `/api/` exists before the write is made: PENDING while the
 * service works on it, settled with the outcome afterwards. The audit log (dashboard.sqlite) and
 * the write (the service's database) cannot share a transaction, so this is what makes a crash in
 * between leave a record. Remote mode against the real service on another port, whose answer the
 * test holds back while it looks at the log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => (await import("./testing/environment")).setTestEnvironment("audit-pending", { NEXTAUTH_SECRET: "audit-pending-test-secret-0123456789abcdef" }));

import { getDashboardDb } from "@/lib/dashboard-store/database";
import { startRemoteDashboard, type RemoteDashboard } from "./testing/dashboards";

let dashboard: RemoteDashboard;
let remote: RemoteDashboard["remote"];
let api: RemoteDashboard["api"];
let cookie: string;
/** Resolves the held write's answer when called. */
let release: (() => void) | null = null;
let held: Promise<void> | null = null;

beforeAll(async () => {
  dashboard = await startRemoteDashboard({
    env,
    tokens: async (issue) => ({ RTM1: { token: await issue("RTM1"), customerId: "CUST-ACME" } }),
    supervisor: { email: "sup@audit.test", plants: ["RTM1"] },
    intercept: async (request, _index, forward) => {
      if (request.method === "POST") {
        held = new Promise<void>((resolve) => (release = resolve));
        await held;
      }
      return forward();
    },
  });
  ({ remote, api, cookie } = dashboard);
});

afterAll(async () => {
  (release as (() => void) | null)?.();
  await dashboard.close();
});

/** Waits until the service holds a write, and returns what lets it go on. */
async function heldWrite(): Promise<() => void> {
  for (let waited = 0; release === null; waited += 10) {
    if (waited > 20_000) throw new Error("the write never reached the service");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const go = release;
  release = null;
  return go;
}

const rows = async () =>
  (await (await getDashboardDb()).all("SELECT action, target, outcome, http_status AS status FROM audit_log WHERE user_email = 'sup@audit.test' ORDER BY id"));

describe("the audit row of a write", () => {
  it("is PENDING while the service works on the write, and settled with its outcome after", async () => {
    const store = remote.runtime.maintenance;
    const body = {
      taskTitle: "Audited",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
      asset: { tagNumber: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber },
    };
    const answer = api.call("/api/plants/RTM1/tasks", { method: "POST", body, cookie });
    const go = await heldWrite();
    // The service holds the write: were the process to die now, this row would say so.
    expect(await rows()).toEqual([{ action: "task.create", target: null, outcome: "PENDING", status: 0 }]);
    go();
    const response = await answer;
    expect(response.status).toBe(200);
    const created = (await response.json()).data[0].id as string;
    expect(await rows()).toEqual([{ action: "task.create", target: created, outcome: "SUCCESS", status: 200 }]);
  });

  it("is settled with the refusal when the write is refused", async () => {
    const answer = api.call("/api/plants/RTM1/tasks", { method: "POST", body: { taskTitle: "" }, cookie });
    const go = await heldWrite();
    expect((await rows()).at(-1)).toMatchObject({ outcome: "PENDING" });
    go();
    expect((await answer).status).toBe(400);
    expect((await rows()).at(-1)).toMatchObject({ action: "task.create", outcome: "INVALID_INPUT", status: 400 });
  });
});
