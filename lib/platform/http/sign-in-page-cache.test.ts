/**
 * The sign-in page kept once rendered (sign-in-page-cache.ts), over real HTTP: a stand-in for Next
 * renders the page as Next does — a nonce-based CSP header, the nonce on every script — and counts
 * its renders.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSignInPageCache, type SignInPageCache } from "./sign-in-page-cache";

let url: string;
let server: http.Server;
let cache: SignInPageCache;
let renders: { url: string; acceptEncoding: string | undefined }[] = [];
/** How the stand-in answers the next renders. */
let style: "next" | "writeHead" | "cookie" | "no-nonce" | "error" = "next";

function render(req: http.IncomingMessage, res: http.ServerResponse) {
  renders.push({ url: req.url!, acceptEncoding: req.headers["accept-encoding"] as string | undefined });
  const nonce = randomBytes(16).toString("base64");
  const policy = `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'; frame-ancestors 'none'`;
  const body = `<!doctype html><html><head><script nonce="${nonce}">theme()</script></head><body><h1>Sign in</h1><p>${req.url}</p><script nonce="${nonce}">self.__next_f.push([1,"{\\"nonce\\":\\"${nonce}\\"}"])</script></body></html>`;
  if (style === "writeHead") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": policy });
    res.write(body.slice(0, 40));
    return void res.end(Buffer.from(body.slice(40)));
  }
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("vary", "rsc, Accept-Encoding");
  if (style !== "no-nonce") res.setHeader("content-security-policy", policy);
  if (style === "cookie") res.setHeader("set-cookie", "a=b; Path=/");
  if (style === "error") res.statusCode = 500;
  res.write(body.slice(0, 100));
  res.end(body.slice(100));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const at = req.url!.indexOf("?");
    const key = cache.keyOf(req, at < 0 ? req.url! : req.url!.slice(0, at), at < 0 ? "" : req.url!.slice(at));
    if (key !== null && cache.serve(key, req, res)) return;
    if (key !== null) cache.capture(key, req, res);
    render(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  cache = createSignInPageCache();
  renders = [];
  style = "next";
});

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const response = await fetch(`${url}${path}`, { method, headers });
  const body = await response.text();
  const policy = response.headers.get("content-security-policy") ?? "";
  return { status: response.status, body, headers: response.headers, nonce: /'nonce-([^']+)'/.exec(policy)?.[1] ?? null };
}

describe("the sign-in page cache", () => {
  it("renders once, then answers from memory with a fresh nonce in the header and everywhere in the page", async () => {
    const first = await get("/signin", { "accept-encoding": "gzip" });
    // Asked of Next uncompressed, so that its nonce can be replaced.
    expect(renders).toEqual([{ url: "/signin", acceptEncoding: undefined }]);
    const answers = [await get("/signin"), await get("/signin", { "accept-encoding": "gzip, br" }), await get("/signin")];
    expect(renders).toHaveLength(1);
    const nonces = new Set([first, ...answers].map((answer) => answer.nonce));
    expect(nonces.size).toBe(4);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(first.body.replaceAll(first.nonce!, answer.nonce!));
      expect(answer.body.split(answer.nonce!)).toHaveLength(4);
      expect(answer.body).not.toContain(first.nonce);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("vary")).toBe("rsc, Accept-Encoding");
      expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(answer.body)));
    }
    const head = await fetch(`${url}/signin`, { method: "HEAD" });
    expect([head.status, await head.text(), renders.length]).toEqual([200, "", 1]);
    // Headers given to writeHead itself are kept too.
    style = "writeHead";
    await get("/signin?error=SignInBusy");
    const kept = await get("/signin?error=SignInBusy");
    expect([renders.length, kept.headers.get("content-security-policy")]).toEqual([2, `script-src 'self' 'nonce-${kept.nonce}' 'strict-dynamic'; frame-ancestors 'none'`]);
  });

  it("keeps a page per query of callbackUrl and error; renders anything else every time", async () => {
    await get("/signin?callbackUrl=%2Fplants");
    await get("/signin?callbackUrl=%2Fplants");
    expect(renders).toHaveLength(1);
    const other = await get("/signin?callbackUrl=%2Fplants%2FRTM1");
    expect(other.body).toContain("/signin?callbackUrl=%2Fplants%2FRTM1");
    expect(renders).toHaveLength(2);
    for (const [path, headers] of [
      ["/signin?_rsc=abc", {}],
      ["/signin?x=1", {}],
      ["/signin", { rsc: "1" }],
      ["/signin", { "next-router-prefetch": "1" }],
      ["/signin", { cookie: "next-auth.session-token=x" }],
      ["/signin/", {}],
    ] as const) {
      await get(path, headers);
      await get(path, headers);
    }
    expect(renders).toHaveLength(14);
  });

  it("keeps no page that set a cookie, has no nonce or failed", async () => {
    for (const kind of ["cookie", "no-nonce", "error"] as const) {
      style = kind;
      await get("/signin");
      await get("/signin");
    }
    expect(renders).toHaveLength(6);
    style = "next";
    await get("/signin");
    await get("/signin");
    expect(renders).toHaveLength(7);
  });
});
