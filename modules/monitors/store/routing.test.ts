/**
 * Contact points, the routing policy and the outbox (routing.ts) on both stores the dashboard runs
 * on, SQLite and PostgreSQL (docs/api.md, "Contact points and routing"): the same routing sends a
 * critical firing to the on-call list and a warning to the chat as one message each, a muted
 * evaluation queues nothing, a group is claimed and sent once, and a contact point keeps the webhook
 * it had when a change leaves it out. A real SMTP server and a local webhook receiver take the sends.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SqlDb } from "@/lib/platform/sql";
import { openDashboardSql } from "@/lib/dashboard-store/database";
import { startSmtpSink, type ReceivedMail } from "@/lib/bff/testing/smtp-sink";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import type { TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";
import type { Evaluation } from "@/modules/monitors/service/evaluate";
import { flushNotifications, routeEvaluation } from "@/modules/monitors/service/routing";
import type { StoredMonitor } from "./monitors";
import { claimGroup, countContactPoints, createContactPoint, getPolicy, listContactPoints, replaceContactPoint, savePolicy } from "./routing";

const NOW = Date.parse("2026-03-10T08:00:00Z");

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let hook: { url: string; texts: string[]; server: http.Server };

beforeAll(async () => {
  smtp = await startSmtpSink();
  const texts: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      texts.push((JSON.parse(body) as { text: string }).text);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hook = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/chat`, texts, server };
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.smtp.close(() => resolve()));
  await new Promise<void>((resolve) => hook?.server.close(() => resolve()));
});

/** The parts of a monitor routing reads; the rest is never touched by it. */
function monitor(id: number, plantId: string, name: string, severity: TMonitorSeverity): StoredMonitor {
  return { id, plantId, name, severity, task: { assetTagNumber: "P-101" } } as unknown as StoredMonitor;
}

function evaluation(muted: boolean): Evaluation {
  return {
    evaluatedAt: new Date(NOW).toISOString(),
    firings: [{ key: { DeviceId: "dev-1" }, state: muted ? "muted" : "opened", taskId: muted ? null : "T-1", assetTagNumber: "P-101" }],
    muted,
    opened: muted ? 0 : 1,
    resolved: 0,
  };
}

function routingSuite(engine: string, open: () => Promise<SqlDb>): void {
  // Each engine's run has its own plant, so the one SMTP sink and receiver tell their sends apart.
  const plantId = `RT-${engine}`;
  let db: SqlDb;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db?.close());

  it("routes by severity, groups per contact point, sends once and mutes", async () => {
    const onCall = await createContactPoint(db, plantId, { name: "On-call", emails: ["oncall@plantdesk.test"] }, "admin@plantdesk.demo", NOW);
    const chat = await createContactPoint(db, plantId, { name: "Shift chat", emails: [], webhookUrl: hook.url }, "admin@plantdesk.demo", NOW);
    expect(await countContactPoints(db, plantId)).toBe(2);
    expect(await getPolicy(db, plantId)).toEqual({ rules: [], defaultContactPointId: null, groupSeconds: 30 });
    await savePolicy(db, plantId, { rules: [{ severities: ["critical"], assetTags: [], contactPointId: onCall.id }], defaultContactPointId: chat.id, groupSeconds: 30 }, "admin@plantdesk.demo", NOW);
    expect((await getPolicy(db, plantId)).defaultContactPointId).toBe(chat.id);

    // A renamed contact point keeps its webhook when the change leaves it out.
    const renamed = await replaceContactPoint(db, plantId, chat.id, { name: "Shift chat (day)", emails: [] }, "engineer@plantdesk.demo", NOW);
    expect(renamed).toMatchObject({ name: "Shift chat (day)", webhookUrl: hook.url });
    expect((await listContactPoints(db, plantId)).map((point) => point.name)).toEqual(["On-call", "Shift chat (day)"]);

    expect(await routeEvaluation(db, monitor(11, plantId, "Bearings critical", "critical"), evaluation(false), NOW)).toBe(1);
    expect(await routeEvaluation(db, monitor(12, plantId, "Fans warning", "warning"), evaluation(false), NOW + 1000)).toBe(1);
    expect(await routeEvaluation(db, monitor(13, plantId, "Shutdown critical", "critical"), evaluation(true), NOW)).toBe(0);

    const notifier = { smtpUrl: smtp.url, smtpFrom: "Plantdesk <alerts@plantdesk.test>", allowPrivateWebhooks: true, emailDomains: ["plantdesk.test"] };
    // Within the grouping wait nothing goes.
    expect(await flushNotifications({ db, notifier }, NOW + 29_000)).toBe(0);
    expect(await flushNotifications({ db, notifier }, NOW + 31_000)).toBe(2);
    const mails = () => smtp.mails.filter((mail: ReceivedMail) => mail.body.includes(plantId));
    await vi.waitFor(() => expect(mails()).toHaveLength(1), { timeout: 10_000 });
    const chatTexts = () => hook.texts.filter((text) => text.includes(plantId));
    await vi.waitFor(() => expect(chatTexts()).toHaveLength(1), { timeout: 10_000 });
    expect(mails()[0]!.to).toEqual(["oncall@plantdesk.test"]);
    expect(mails()[0]!.body).toContain("Bearings critical");
    expect(mails()[0]!.body).not.toContain("Fans warning");
    expect(chatTexts()[0]).toContain("Fans warning");
    expect(chatTexts()[0]).not.toContain("Bearings critical");
    expect(chatTexts()[0]).not.toContain("Shutdown critical");

    // Sent once: nothing waits, a later flush sends nothing, and each contact point shows its send.
    expect(await claimGroup(db, onCall.id, "late-batch")).toEqual([]);
    expect(await flushNotifications({ db, notifier }, NOW + 120_000)).toBe(0);
    const points = await listContactPoints(db, plantId);
    expect(points.map((point) => [point.lastSentAt, point.lastError])).toEqual([
      [new Date(NOW + 31_000).toISOString(), null],
      [new Date(NOW + 31_000).toISOString(), null],
    ]);
  });
}

describe("contact points and routing on SQLite", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-routing-store-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  routingSuite("sqlite", () => openDashboardSql({ dataDir }));
});

describeWithService("postgres", "contact points and routing on PostgreSQL", (service) => {
  let schema: TestSchema | undefined;
  afterAll(() => schema?.drop());
  routingSuite("postgres", async () => {
    schema ??= await createTestSchema(service.url);
    return openDashboardSql({ dataDir: "/nonexistent", DATABASE_URL: schema.url });
  });
});
