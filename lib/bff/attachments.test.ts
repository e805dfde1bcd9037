/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * A task's attachments through `/api/` over real HTTP with real session cookies (docs/api.md,
 * "Attachments"): the bytes pass through the dashboard untouched both ways with the service's
 * headers, the /api/ route takes 10 MiB (and refuses more with 413) while JSON routes keep 1 MiB,
 * whoever may edit or close out the task attaches (an engineer only to a task assigned to them),
 * every reader downloads, and each upload is audited with its name, type and size.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const env = await vi.hoisted(async () => {
  const demoPassword = "demo-password-for-tests";
  return { ...(await import("./testing/environment")).setTestEnvironment("bff-attach", { DEMO_PASSWORD: demoPassword }), demoPassword };
});

import { MAX_ATTACHMENT_BYTES } from "@/modules/maintenance/contract/attachment-files";
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { queryAudit } from "@/lib/dashboard-store/audit";
import { startEmbeddedDashboard, type EmbeddedDashboard } from "./testing/dashboards";

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");
let dashboard: EmbeddedDashboard;
const cookies: Record<string, string> = {};
let taskId: string;

function upload(who: string, bytes: Uint8Array, contentType: string, filename: string, task = taskId) {
  return fetch(`${dashboard.api.url}/api/plants/RTM1/tasks/${task}/attachments?filename=${encodeURIComponent(filename)}`, {
    method: "POST",
    headers: { cookie: cookies[who]!, "content-type": contentType },
    body: bytes as BodyInit,
  });
}

beforeAll(async () => {
  dashboard = await startEmbeddedDashboard(env, env.demoPassword);
  for (const role of ["planner", "supervisor", "engineer"]) cookies[role] = await dashboard.cookieFor(`${role}@plantdesk.demo`);
  const store = dashboard.runtime.maintenance;
  const created = await dashboard.api.call("/api/plants/RTM1/tasks", {
    method: "POST",
    cookie: cookies.planner!,
    body: {
      taskTitle: "Photograph the leak",
      activityKind: (await store.allowedLookupValues("RTM1", "activityKind"))[0]!,
      priority: (await store.allowedLookupValues("RTM1", "priority"))[0]!,
      asset: { tagNumber: (await store.listAssets("RTM1", { page: 1, pageSize: 1 })).data[0]!.tagNumber },
    },
  });
  taskId = ((await created.json()) as any).data[0].id;
});

afterAll(() => dashboard.close());

describe("attachments through /api/", () => {
  it("pass the bytes both ways with the service's headers, and are audited", async () => {
    const sent = await upload("planner", PDF, "application/pdf", "pump manual.pdf");
    expect(sent.status).toBe(200);
    const attachment = (await sent.json()) as any;
    expect(attachment).toMatchObject({ name: "pump manual.pdf", contentType: "application/pdf", size: PDF.length });
    const got = await fetch(`${dashboard.api.url}/api/plants/RTM1/attachments/${attachment.id}`, { headers: { cookie: cookies.engineer! } });
    expect(got.status).toBe(200);
    expect(createHash("sha256").update(Buffer.from(await got.arrayBuffer())).digest("hex")).toBe(attachment.sha256);
    expect(got.headers.get("content-disposition")).toMatch(/^attachment; filename="pump manual.pdf"/);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toMatch(/^sandbox/);
    const listed = (await (await dashboard.api.call(`/api/plants/RTM1/tasks/${taskId}/attachments`, { cookie: cookies.engineer! })).json()) as any;
    expect(listed.data.map((a: any) => a.id)).toEqual([attachment.id]);
    const audit = await queryAudit(await getDashboardDb(), { action: "task.attach" }, 1, 10);
    expect(audit.data[0]).toMatchObject({ userEmail: "planner@plantdesk.demo", outcome: "SUCCESS", target: attachment.id, detail: { name: "pump manual.pdf", contentType: "application/pdf", size: PDF.length } });
  });

  it("takes up to 10 MiB on the upload route only", async () => {
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x20);
    PDF.copy(big);
    const refused = await upload("supervisor", big, "application/pdf", "big.pdf");
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as any).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await upload("supervisor", big.subarray(0, MAX_ATTACHMENT_BYTES), "application/pdf", "exact.pdf")).status).toBe(200);
    const json = await fetch(`${dashboard.api.url}/api/plants/RTM1/tasks`, { method: "POST", headers: { cookie: cookies.planner!, "content-type": "application/json" }, body: Buffer.alloc(2 * 1024 * 1024, 0x20) });
    expect(json.status).toBe(413);
  }, 60_000);

  it("lets an engineer attach only to a task assigned to them", async () => {
    const refused = await upload("engineer", PDF, "application/pdf", "x.pdf");
    expect(refused.status).toBe(403);
    const assigned = await dashboard.api.call(`/api/plants/RTM1/tasks/${taskId}`, { method: "PATCH", cookie: cookies.planner!, body: { assignee: { username: "engineer@plantdesk.demo" } } });
    expect(assigned.status).toBe(200);
    expect((await upload("engineer", PDF, "application/pdf", "mine.pdf")).status).toBe(200);
  });
});
