/**
 * The one server's front door (scripts/serve.ts; docs/architecture.md, "One front door per
 * surface"): every request gets its one path spelling, a request id (the `x-request-id` header of
 * its answer, and of every log line written while it is served), HSTS when it came over TLS, and
 * is counted in the metrics; then the operator's endpoints answer before any surface and any
 * sign-in — `GET /healthz` (liveness), `GET /readyz` (every database and broker reachable),
 * `GET /metrics` (Prometheus, for the metrics token or an admin) — and everything else goes to its
 * surface (`surfaceFor`). Kept apart from serve.ts so that tests serve it with a stand-in for Next.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { errorBody } from "../lib/contract/errors";
import { jsonLine, withRequestId } from "../lib/platform/log";
import { metrics, routeLabel, scrape } from "../lib/platform/metrics";
import { normalizeRequestTarget, surfaceFor, type Surface } from "../lib/platform/http/paths";
import { SECURITY_HEADERS } from "../lib/platform/http/security-headers";

export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface ReadinessCheck {
  name: string;
  ok: boolean;
}

export interface FrontDoorOptions {
  /** The embedded service's listener; null in remote mode (a program's request then gets a JSON 404). */
  service: Listener | null;
  api: Listener;
  /** Pages, assets and sign-in (Next.js, with serve.ts's body checks). */
  next: Listener;
  /** Every database and broker this instance needs, each answering or not. */
  readiness(): Promise<ReadinessCheck[]>;
  /** Whether a request may read /metrics: the metrics token as bearer, or an admin's session cookie. */
  metricsAllowed(headers: IncomingMessage["headers"]): Promise<boolean>;
  /** X-Forwarded-Proto (and an X-Request-Id) are believed only from a trusted proxy. */
  trustProxy: boolean;
  /** LOG_FORMAT=json: one access line per request. */
  jsonLogs: boolean;
}

/** A year, subdomains included: the dashboard is served over HTTPS only once it is served over it at all. */
const HSTS = "max-age=31536000; includeSubDomains";
/** A proxy's request id is kept when it looks like one (bounded, printable, no separators a log could split on). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const OPERATOR_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

function cameOverTls(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trustProxy) return false;
  const proto = req.headers["x-forwarded-proto"];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase() === "https";
}

function requestIdOf(req: IncomingMessage, trustProxy: boolean): string {
  const given = req.headers["x-request-id"];
  if (trustProxy && typeof given === "string" && REQUEST_ID.test(given)) return given;
  return randomUUID();
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS.api, "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** A label for what answered: the router's pattern, or a bounded stand-in (never the raw path). */
function routeFor(surface: Surface | "operator", pathname: string, res: ServerResponse): string {
  if (surface === "operator") return pathname;
  const pattern = routeLabel(res);
  if (pattern) return pattern;
  if (surface === "next") return pathname.startsWith("/_next/") ? "/_next/*" : pathname.startsWith("/api/auth/") ? "/api/auth/*" : "page";
  return "unmatched";
}

export function createFrontDoor(options: FrontDoorOptions): Listener {
  const { httpRequests, httpDuration } = metrics();

  async function operator(pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return json(res, 405, errorBody("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here; use GET.`, []), { allow: "GET, HEAD" });
    }
    if (pathname === "/healthz") return json(res, 200, { status: "ok" });
    if (pathname === "/readyz") {
      const checks = await options.readiness().catch(() => [{ name: "readiness", ok: false }]);
      const ready = checks.every((check) => check.ok);
      return json(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks }, ready ? {} : { "retry-after": "5" });
    }
    if (!(await options.metricsAllowed(req.headers).catch(() => false))) {
      return json(res, 401, errorBody("UNAUTHORIZED", "The metrics need the metrics token (Authorization: Bearer <token>, from `npm run ops -- metrics token`) or an admin's session.", []), {
        "www-authenticate": 'Bearer realm="metrics"',
      });
    }
    const { contentType, text } = await scrape();
    res.writeHead(200, { ...SECURITY_HEADERS.api, "content-type": contentType, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : text);
  }

  return (req, res) => {
    const started = performance.now();
    // One spelling of the path, before any decision; every surface, Next included, gets that spelling.
    req.url = normalizeRequestTarget(req.url ?? "/");
    const pathname = req.url.split("?")[0]!;
    const requestId = requestIdOf(req, options.trustProxy);
    res.setHeader("x-request-id", requestId);
    if (cameOverTls(req, options.trustProxy)) res.setHeader("strict-transport-security", HSTS);
    const surface: Surface | "operator" = OPERATOR_PATHS.has(pathname) ? "operator" : surfaceFor(pathname, req.headers);

    res.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const method = METHODS.has(req.method ?? "") ? req.method! : "OTHER";
      const route = routeFor(surface, pathname, res);
      const status = res.headersSent ? String(res.statusCode) : "aborted";
      httpRequests.inc({ surface, route, method, status });
      httpDuration.observe({ surface, route, method }, seconds);
      if (options.jsonLogs) {
        process.stdout.write(`${withRequestId(requestId, () => jsonLine("info", "request", { method, route, status, durationMs: Math.round(seconds * 1000 * 10) / 10 }))}\n`);
      }
    });

    withRequestId(requestId, () => {
      if (surface === "operator") {
        operator(pathname, req, res).catch(() => {
          if (!res.headersSent) json(res, 500, errorBody("INTERNAL_ERROR", "An unexpected error occurred.", []));
          else res.end();
        });
      } else if (surface === "service") {
        // Remote mode serves no service of its own: a program's request still gets JSON, never a page.
        if (options.service) options.service(req, res);
        else json(res, 404, errorBody("NOT_FOUND", `No resource at ${pathname.slice(0, 200)}.`, []), { connection: "close" });
      } else if (surface === "api") options.api(req, res);
      else options.next(req, res);
    });
  };
}
