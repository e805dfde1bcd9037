/**
 * A small round-robin HTTP balancer for tests and benchmarks: one loopback address in front of
 * several Plantdesk instances, as nginx or haproxy would stand in front of them in production.
 * It does what an operator's balancer must do for the cluster's promises to hold:
 *
 * - a request goes to the next instance in turn, with its body buffered (bodies here are small);
 * - an instance that refuses the connection is skipped for a while (`downMs`) and the request goes
 *   to the next one: it never reached a server, so resending it is safe, a write included;
 * - a request that was sent but lost with its instance (the connection reset before an answer) is
 *   resent only when it is a GET or HEAD; a write answers 502, since the dead instance may have
 *   done it — the client retries it with its Idempotency-Key (docs/api.md §3), on a living instance.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Balancer {
  url: string;
  /** Requests each backend answered (by index), for tests that want to see the spread. */
  served: number[];
  close(): Promise<void>;
}

interface BalancerOptions {
  /** How long a backend that refused a connection is left out. */
  downMs?: number;
}

const IDEMPOTENT = new Set(["GET", "HEAD"]);
/** Hop-by-hop headers are the balancer's own business (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"];

export async function startBalancer(backends: readonly string[], options: BalancerOptions = {}): Promise<Balancer> {
  const downMs = options.downMs ?? 1_000;
  const targets = backends.map((base) => ({ url: new URL(base), agent: new http.Agent({ keepAlive: true, maxSockets: 64 }), downUntil: 0 }));
  const served = targets.map(() => 0);
  let next = 0;

  /** The next backend in turn that is not left out; all of them when every one is. */
  function pick(tried: Set<number>): number | undefined {
    const now = Date.now();
    for (const skipDown of [true, false]) {
      for (let step = 0; step < targets.length; step++) {
        const index = (next + step) % targets.length;
        if (tried.has(index) || (skipDown && targets[index]!.downUntil > now)) continue;
        next = (index + 1) % targets.length;
        return index;
      }
    }
    return undefined;
  }

  function forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tried: Set<number>): void {
    const index = pick(tried);
    if (index === undefined) {
      res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ status: "ERROR", code: "BAD_GATEWAY", message: "No instance answered.", data: [] }));
      return;
    }
    tried.add(index);
    const target = targets[index]!;
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.url.host, "content-length": String(body.length) };
    for (const name of HOP_BY_HOP) delete headers[name];
    if (body.length === 0 && !["POST", "PUT", "PATCH"].includes(req.method ?? "")) delete headers["content-length"];
    const upstream = http.request({ host: target.url.hostname, port: target.url.port, method: req.method, path: req.url, headers, agent: target.agent });
    upstream.on("response", (answer) => {
      served[index]! += 1;
      const out = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete out[name];
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy();
      const refused = error.code === "ECONNREFUSED";
      if (refused) target.downUntil = Date.now() + downMs;
      // Never reached the instance, or a read that can simply be asked again: next instance.
      if (refused || IDEMPOTENT.has(req.method ?? "GET")) return forward(req, res, body, tried);
      target.downUntil = Date.now() + downMs;
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ERROR", code: "BAD_GATEWAY", message: "The instance was lost before it answered; the write may or may not have been done.", data: [] }));
    });
    upstream.end(body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        for (const target of targets) target.agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
