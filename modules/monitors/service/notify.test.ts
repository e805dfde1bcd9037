/**
 * The webhook call of a monitor's notification against a real local HTTP server: a redirect is not
 * followed, a large answer is read only up to its cap, failures are reported by status, and no
 * message names the URL (a chat workspace's secret).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postWebhook } from "./notify";

/** The receiver listens on loopback: these cases run with the operator's WEBHOOK_ALLOW_PRIVATE. */
const allowed = { allowPrivate: true };
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
    const problem = await postWebhook(`${base}/moved?token=secret-value`, "hello", allowed);
    expect(problem).toBe("webhook: answered a redirect (302), which is not followed");
    expect(hits).not.toContain("/elsewhere");
  });

  it("reads a large answer only up to its cap and reports failures by status", async () => {
    expect(await postWebhook(`${base}/big`, "hello", allowed)).toBeNull();
    expect(await postWebhook(`${base}/fails?token=secret-value`, "hello", allowed)).toBe("webhook: answered HTTP 500");
    const unreachable = await postWebhook("http://127.0.0.1:1/hook?token=secret-value", "hello", allowed);
    expect(unreachable).toBe("webhook: could not be reached");
  });
});

describe("webhook destinations (WEBHOOK_ALLOW_PRIVATE unset)", () => {
  const port = () => new URL(base).port;
  const publicOnly = { allowPrivate: false };

  it("refuses loopback, private, link-local, multicast and unspecified addresses in every spelling, and never calls them", async () => {
    const before = hits.length;
    const spellings = [
      "127.0.0.1", "127.1", "2130706433", "0x7f.1", "0x7f000001", "0177.0.0.1", "017700000001", "127.0.0.1.",
      "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:7f00:1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::1]",
      "0.0.0.0", "0", "[::]", "10.0.0.1", "172.16.0.1", "192.168.1.1", "100.64.0.1", "169.254.169.254", "[fe80::1]", "[fc00::1]",
      "224.0.0.1", "[ff02::1]", "255.255.255.255", "localhost", "LOCALHOST.",
    ];
    for (const host of spellings) {
      expect(await postWebhook(`http://${host}:${port()}/hook?token=secret-value`, "hello", publicOnly), host).toBe("webhook: refused destination");
    }
    expect(hits.length).toBe(before);
  });

  it("resolves a name and refuses it when ANY of its addresses is not public", async () => {
    const resolve = async () => ["93.184.216.34", "10.1.2.3"];
    expect(await postWebhook("http://hooks.example.com/x", "hello", { ...publicOnly, resolve })).toBe("webhook: refused destination");
    expect(await postWebhook("http://name-that-does-not-resolve.invalid/x", "hello", publicOnly)).toBe("webhook: refused destination");
    expect(await postWebhook("ftp://hooks.example.com/x", "hello", publicOnly)).toBe("webhook: refused destination");
  });

  it("connects to the address it checked, not to whatever the name resolves to later (no rebinding)", async () => {
    // The name resolves once, to the receiver; a second lookup would have answered a refused address.
    const answers = [["127.0.0.1"], ["10.9.9.9"]];
    let lookups = 0;
    const resolve = async () => answers[Math.min(lookups++, 1)]!;
    const before = hits.length;
    expect(await postWebhook(`http://hook.internal.test:${port()}/pinned`, "hello", { allowPrivate: true, resolve })).toBeNull();
    expect(lookups).toBe(1);
    expect(hits.slice(before)).toEqual(["/pinned"]);
  });
});
