/* eslint-disable @typescript-eslint/no-explicit-any -- JSON records are read freely in assertions */
/**
 * A task's attachments over real HTTP (docs/api.md, "Attachments"), on SQLite and on PostgreSQL (a
 * schema of its own): the round trip with its SHA-256, the headers of a download, the limits (10 MiB,
 * 50 per task), the types and the check of the bytes against the declared type, another plant's
 * token, and the job record of a closed task listing its files. Every JSON answer is checked
 * against the served OpenAPI document; downloads are read as bytes.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTACHMENT_BYTES } from "@/modules/maintenance/contract/attachment-files";
import { createTestSchema, type TestSchema } from "@/lib/testing/postgres-schema";
import { describeWithService } from "@/lib/testing/with-service";
import { startCheckedService, type ApiResponse, type CheckedService } from "@/lib/service/testing/openapi-checked-client";

const PLANT = "RTM1";
const BASE = `/maintenance/v1/plants/${PLANT}`;
const ANN = { username: "ann@plant.example", firstname: "Ann", lastname: "Smith" };
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ status: "ERROR", code });
}

function attachmentsSuite(engine: () => Record<string, string>) {
  let service: CheckedService;
  let token: string;
  let otherPlant: string;
  let otherToken: string;
  let newTask: () => Promise<string>;

  const upload = (taskId: string, bytes: Uint8Array, contentType: string, filename: string | null = "file", as = token, plant = PLANT) =>
    service.client.call("POST", `/maintenance/v1/plants/${plant}/tasks/${taskId}/attachments${filename === null ? "" : `?filename=${encodeURIComponent(filename)}`}`, {
      token: as,
      rawBody: bytes,
      headers: { "content-type": contentType },
    });
  const download = (id: string, as = token, plant = PLANT) => fetch(`${service.server.url}/maintenance/v1/plants/${plant}/attachments/${id}`, { headers: { authorization: `Bearer ${as}` } });

  beforeAll(async () => {
    service = await startCheckedService("attachments", { MAINTENANCE_RATE_LIMIT_PER_MINUTE: "1000000", ...engine() });
    token = (await service.runtime.plantTokens.issue(PLANT)).token;
    otherPlant = service.runtime.customers.flatMap((customer) => customer.plants).find((plant) => plant.id !== PLANT)!.id;
    otherToken = (await service.runtime.plantTokens.issue(otherPlant)).token;
    const call = (method: string, path: string, body?: unknown) => service.client.call(method, `${BASE}${path}`, { token, body });
    const values = (await call("GET", "/lookup-values?pageSize=1000")).body.data;
    const first = (kind: string) => values.find((v: any) => v.kind === kind).value;
    const asset = (await call("GET", "/assets?pageSize=1000")).body.data.find((a: any) => a.assetType !== "AREA" && a.assetType !== "LINE");
    newTask = async () => {
      const created = await call("POST", "/tasks", { taskTitle: "Replace the pump seal", activityKind: first("activityKind"), priority: first("priority"), asset: { tagNumber: asset.tagNumber } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return created.body.data[0].id as string;
    };
  }, 180_000);
  afterAll(() => service?.close());

  it("keeps a file and serves it back byte for byte, listed with its SHA-256", async () => {
    const taskId = await newTask();
    const res = await upload(taskId, PNG, "image/png", "seal leak.png");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: "seal leak.png", contentType: "image/png", size: PNG.length, sha256: sha256(PNG) });
    const listed = await service.client.call("GET", `${BASE}/tasks/${taskId}/attachments`, { token });
    expect(listed.body).toMatchObject({ page: 1, totalPages: 1, data: [{ id: res.body.id, name: "seal leak.png", sha256: sha256(PNG) }] });

    const got = await download(res.body.id);
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(sha256(bytes)).toBe(sha256(PNG));
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-disposition")).toMatch(/^inline; filename="seal leak.png"/);
    expect(got.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
  });

  it("serves everything but images as a download, text with its charset", async () => {
    const taskId = await newTask();
    const pdf = await upload(taskId, PDF, "application/pdf", "manual.pdf");
    const csv = await upload(taskId, Buffer.from("reading,value\nbearing,61.5\n"), "text/csv", "readings ü.csv");
    expect([pdf.status, csv.status]).toEqual([200, 200]);
    const gotPdf = await download(pdf.body.id);
    expect(gotPdf.headers.get("content-disposition")).toMatch(/^attachment; filename="manual.pdf"/);
    expect(gotPdf.headers.get("content-type")).toBe("application/pdf");
    const gotCsv = await download(csv.body.id);
    expect(gotCsv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(gotCsv.headers.get("content-disposition")).toBe(`attachment; filename="readings _.csv"; filename*=UTF-8''${encodeURIComponent("readings ü.csv")}`);
    expect(await gotCsv.text()).toBe("reading,value\nbearing,61.5\n");
  });

  it("refuses a file over 10 MiB with 413, and takes one of exactly 10 MiB", async () => {
    const taskId = await newTask();
    const limit = Buffer.alloc(MAX_ATTACHMENT_BYTES, 0x20);
    PDF.copy(limit);
    expectError(await upload(taskId, Buffer.concat([limit, Buffer.from("x")]), "application/pdf", "big.pdf"), 413, "PAYLOAD_TOO_LARGE");
    const exact = await upload(taskId, limit, "application/pdf", "exact.pdf");
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body.size).toBe(MAX_ATTACHMENT_BYTES);
    // Other routes keep the 1 MiB limit of every JSON body.
    const bigJson = await service.client.call("POST", `${BASE}/tasks`, { token, rawBody: Buffer.alloc(2 * 1024 * 1024, 0x20), headers: { "content-type": "application/json" } });
    expectError(bigJson, 413, "PAYLOAD_TOO_LARGE");
  }, 60_000);

  it("refuses types it does not take, and bytes that are not what their type says", async () => {
    const taskId = await newTask();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectError(await upload(taskId, svg, "image/svg+xml", "x.svg"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(taskId, Buffer.from("<html><script>alert(1)</script></html>"), "text/html", "x.html"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(taskId, PNG, "application/octet-stream", "x.bin"), 415, "UNSUPPORTED_MEDIA_TYPE");
    // Sniffed: a JPEG sent as a PNG, a page sent as text, an SVG as a PNG, binary sent as CSV.
    const mismatch = await upload(taskId, JPEG_START, "image/png", "photo.png");
    expectError(mismatch, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(mismatch.body.message).toContain("PNG");
    expectError(await upload(taskId, Buffer.from("\n  <!DOCTYPE html><p>hi"), "text/plain", "x.txt"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(taskId, svg, "image/png", "x.png"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(taskId, Buffer.from([0x61, 0x00, 0x62]), "text/csv", "x.csv"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(taskId, Buffer.from([0xc3, 0x28]), "text/plain", "x.txt"), 415, "UNSUPPORTED_MEDIA_TYPE");
    // A name is required, without a path; an empty file is refused.
    expectError(await upload(taskId, PNG, "image/png", null), 400, "INVALID_INPUT");
    expectError(await upload(taskId, PNG, "image/png", "../etc/passwd"), 400, "INVALID_INPUT");
    expectError(await upload(taskId, Buffer.alloc(0), "image/png", "empty.png"), 400, "INVALID_INPUT");
    expect((await service.client.call("GET", `${BASE}/tasks/${taskId}/attachments`, { token })).body.data).toEqual([]);
  });

  it("takes 50 files per task and refuses the 51st", async () => {
    const taskId = await newTask();
    const results = [];
    for (let i = 0; i < 50; i++) results.push((await upload(taskId, Buffer.from(`note ${i}\n`), "text/plain", `note-${i}.txt`)).status);
    expect(results).toEqual(results.map(() => 200));
    const refused = await upload(taskId, Buffer.from("one too many\n"), "text/plain", "note-50.txt");
    expectError(refused, 409, "TOO_MANY_ATTACHMENTS");
    expect(refused.body.message).toContain("50");
    const listed = await service.client.call("GET", `${BASE}/tasks/${taskId}/attachments?pageSize=1000`, { token });
    expect(listed.body.data.map((a: any) => a.name)).toEqual(Array.from({ length: 50 }, (_, i) => `note-${i}.txt`));
  }, 60_000);

  it("keeps a plant's files from another plant's token", async () => {
    const taskId = await newTask();
    const kept = await upload(taskId, PNG, "image/png", "mine.png");
    // Another plant's token on its own plant: the attachment is not found there.
    const elsewhere = await download(kept.body.id, otherToken, otherPlant);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ status: "ERROR", code: "ATTACHMENT_NOT_FOUND" });
    // On this plant's path it may not act at all; nor may it list or upload to this plant's task.
    expect((await download(kept.body.id, otherToken)).status).toBe(403);
    expectError(await upload(taskId, PNG, "image/png", "theirs.png", otherToken, otherPlant), 404, "TASK_NOT_FOUND");
    expectError(await service.client.call("GET", `/maintenance/v1/plants/${otherPlant}/tasks/${taskId}/attachments`, { token: otherToken }), 404, "TASK_NOT_FOUND");
    expectError(await upload("NO-SUCH-TASK", PNG, "image/png", "x.png"), 404, "TASK_NOT_FOUND");
    expect((await download("AT-0000000000000000")).status).toBe(404);
  });

  it("lists a task's files on the job record its close-out wrote", async () => {
    const taskId = await newTask();
    const photo = (await upload(taskId, PNG, "image/png", "before.png")).body;
    const closed = await service.client.call("POST", `${BASE}/tasks/${taskId}/close-out`, { token, body: { hoursWorked: 1.5, personCount: 1, carriedOutBy: ANN } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const after = (await upload(taskId, PDF, "application/pdf", "report.pdf")).body;
    const jobs = (await service.client.call("GET", `${BASE}/jobs-done?pageSize=1000`, { token })).body.data;
    const job = jobs.find((j: any) => j.taskId === taskId);
    expect(job.attachments).toEqual([
      { id: photo.id, name: "before.png", contentType: "image/png", size: PNG.length, sha256: sha256(PNG), createdAt: photo.createdAt },
      { id: after.id, name: "report.pdf", contentType: "application/pdf", size: PDF.length, sha256: sha256(PDF), createdAt: after.createdAt },
    ]);
    expect(jobs.filter((j: any) => !j.taskId).every((j: any) => j.attachments === null)).toBe(true);
  });
}

describe("attachments on SQLite", () => attachmentsSuite(() => ({})));

describeWithService("postgres", "attachments on PostgreSQL", (postgres) => {
  let schema: TestSchema | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(postgres.url);
  }, 60_000);
  afterAll(() => schema?.drop());
  attachmentsSuite(() => ({ DATABASE_URL: schema!.url }));
});
