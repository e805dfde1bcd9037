/**
 * The webhook call of a monitor's notification against a real local HTTP server: a redirect is not
 * followed, a large answer is read only up to its cap, failures are reported by status, and no
 * message names the URL (a chat workspace's secret).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "./notify";

let server: http.Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    hits.push(path!);
    if (path === "/moved") res.writeHead(302, { location: `${base}/elsewhere` }).end();
    else if (path === "/big") res.writeHead(200).end("x".repeat(1024 * 1024));
    else if (path === "/fails") res.writeHead(500).end("no");
    else res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("webhook notifications", () => {
  it("refuses to follow a redirect, and says so without the URL", async () => {
    const problem = await postWebhook(`${base}/moved?token=secret-value`, "hello");
    expect(problem).toBe("webhook: answered a redirect (302), which is not followed");
    expect(hits).not.toContain("/elsewhere");
  });

  it("reads a large answer only up to its cap and reports failures by status", async () => {
    expect(await postWebhook(`${base}/big`, "hello")).toBeNull();
    expect(await postWebhook(`${base}/fails?token=secret-value`, "hello")).toBe("webhook: answered HTTP 500");
    const unreachable = await postWebhook("http://127.0.0.1:1/hook?token=secret-value", "hello");
    expect(unreachable).toBe("webhook: could not be reached");
  });
});
