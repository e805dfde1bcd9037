/**
 * The one server's front door (scripts/serve.ts; docs/architecture.md, "One front door per
 * surface"): every request gets its one path spelling, a request id (the `x-request-id` header of
 * its answer, and of every log line written while it is served), HSTS when it came over TLS, and
 * is counted in the metrics; then the operator's endpoints answer before any surface and any
 * sign-in — `GET /healthz` (liveness), `GET /readyz` (every database and broker reachable),
 * `GET /metrics` (Prometheus, for the metrics token or an admin) — and everything else goes to its
 * surface (`surfaceFor`), once its principal's pool has a place for it (admission.ts; docs/architecture.md,
 * "A fair front door"). Kept apart from serve.ts so that tests serve it with a stand-in for Next.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { errorBody } from "../lib/contract/errors";
import { SIGN_IN_ERRORS } from "../lib/contract/sign-in-errors";
import { jsonLine, withRequestId } from "../lib/platform/log";
import { addScrapeHook, metrics, routeLabel, scrape } from "../lib/platform/metrics";
import { createAdmitter, type AdmissionLimits, type Admitter, type PoolKind } from "../lib/platform/http/admission";
import { createAnonymousRate, type AnonymousRateLimits, type Entry } from "../lib/platform/http/anonymous-rate";
import { normalizeRequestTarget, surfaceFor, type Surface } from "../lib/platform/http/paths";
import { SECURITY_HEADERS } from "../lib/platform/http/security-headers";
import { hasSessionCookie, signInRedirect } from "../lib/platform/http/sign-in-gate";
import type { SignInPageCache } from "../lib/platform/http/sign-in-page-cache";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

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
  /** The pools' sizes (README, configuration: ADMISSION_*); the defaults when absent. */
  admission?: AdmissionLimits;
  /** The anonymous requests' rate and line (README, configuration: ADMISSION_ANONYMOUS_PER_SECOND); the defaults when absent. */
  anonymousRate?: AnonymousRateLimits;
  /** The sign-in page kept once rendered (production; development renders every time, for hot reload). */
  signInPage?: SignInPageCache;
}

/** The defaults of the ADMISSION_* variables (lib/config.ts); assets are not configurable. */
export const DEFAULT_ADMISSION: AdmissionLimits = {
  anonymous: { concurrent: 4, queue: 32 },
  principal: { concurrent: 8, queue: 32 },
  assets: { concurrent: 16, queue: 256 },
  queueWaitMs: 2_000,
};

/** The default of ADMISSION_ANONYMOUS_PER_SECOND (lib/config.ts); the line's length and patience are not configurable. */
export const DEFAULT_ANONYMOUS_RATE: AnonymousRateLimits = { perSecond: 50, line: 1024, waitMs: 10_000 };

/** A year, subdomains included: the dashboard is served over HTTPS only once it is served over it at all. */
const HSTS = "max-age=31536000; includeSubDomains";
/** A proxy's request id is kept when it looks like one (bounded, printable, no separators a log could split on). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const OPERATOR_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
/** lib/contract/sign-in-errors.ts's `busy`: the sign-in page says "many sign-ins…, try again in a few seconds". */
const SIGN_IN_BUSY = SIGN_IN_ERRORS.busy;

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

/**
 * The answer of a request its pool has no place for: the spec's error body with 429 and
 * Retry-After; for sign-in's own form post, what next-auth's `signIn()` reads (a URL whose `error`
 * the sign-in page puts in words, components/auth/sign-in-errors.ts); for a page, a short page that
 * loads itself again after the wait.
 */
function refuse(req: IncomingMessage, res: ServerResponse, pathname: string, retryAfterSeconds: number): void {
  const hasBody = req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0" || req.headers["transfer-encoding"] !== undefined;
  const headers: Record<string, string> = { "retry-after": String(retryAfterSeconds), "cache-control": "no-store", ...(hasBody ? { connection: "close" } : {}) };
  if (/^\/api\/auth\/(callback|signin)\//.test(pathname)) {
    // next-auth's client reads `new URL(url).searchParams.get("error")`: an absolute URL; its host is not followed.
    const host = typeof req.headers.host === "string" && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(req.headers.host) ? req.headers.host : "localhost";
    return json(res, 429, { url: `http://${host}/signin?error=${SIGN_IN_BUSY}` }, headers);
  }
  const accept = typeof req.headers.accept === "string" ? req.headers.accept : "";
  if (req.method === "GET" && accept.includes("text/html") && !pathname.startsWith("/api/")) {
    res.writeHead(429, { ...SECURITY_HEADERS.api, ...headers, "content-type": "text/html; charset=utf-8" });
    return void res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${retryAfterSeconds}"><title>Plantdesk is busy</title></head>` +
        `<body><p>Plantdesk is busy right now. This page loads again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.</p></body></html>`,
    );
  }
  json(res, 429, errorBody("RATE_LIMITED", `Too many requests at once from you or from clients that are not signed in; retry after ${retryAfterSeconds} s.`, []), headers);
}

export function createFrontDoor(options: FrontDoorOptions): Listener {
  const { httpRequests, httpDuration, admission: refused, admissionInUse } = metrics();
  const admitter: Admitter = createAdmitter(options.admission ?? DEFAULT_ADMISSION);
  const anonymousRate = createAnonymousRate(options.anonymousRate ?? DEFAULT_ANONYMOUS_RATE);
  addScrapeHook(() => {
    for (const [pool, use] of Object.entries(admitter.usage())) {
      admissionInUse.set({ pool, state: "running" }, use.running);
      admissionInUse.set({ pool, state: "waiting" }, use.waiting);
    }
    admissionInUse.set({ pool: "anonymous_rate", state: "waiting" }, anonymousRate.waiting());
  });

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

    if (surface === "operator") {
      return withRequestId(requestId, () =>
        operator(pathname, req, res).catch(() => {
          if (!res.headersSent) json(res, 500, errorBody("INTERNAL_ERROR", "An unexpected error occurred.", []));
          else res.end();
        }),
      );
    }

    const pool = admitter.poolOf(req, pathname);
    const gone = new AbortController();
    // Only a request still waiting (for its turn or its place) has anything to abort (an abort makes
    // a DOMException: measurable under a flood, when every answer's close did it).
    let waiting = true;
    res.once("close", () => {
      if (waiting) gone.abort();
    });
    const url = req.url;

    const enter = () => {
      // A page without a session cookie goes to sign-in: answered here, before admission and before
      // Next (whose proxy.ts would answer the same after its own routing), so an anonymous flood of
      // page requests costs a redirect each and takes no place from the sign-in page's pool. The
      // sign-in page itself, once rendered, is answered from memory the same way (sign-in-page-cache.ts).
      let signInPageKey: string | null = null;
      if (surface === "next" && (req.method === "GET" || req.method === "HEAD")) {
        const at = url.indexOf("?");
        const query = at < 0 ? "" : url.slice(at);
        const signIn = signInRedirect(pathname, query, hasSessionCookie(req.headers.cookie));
        if (signIn) {
          waiting = false;
          res.writeHead(307, { ...SECURITY_HEADERS.api, location: signIn, "cache-control": "no-store" });
          return void res.end();
        }
        signInPageKey = options.signInPage?.keyOf(req, pathname, query) ?? null;
        if (signInPageKey !== null && options.signInPage!.serve(signInPageKey, req, res)) return void (waiting = false);
      }

      // Admission before any route work: the principal's pool, a place in it or a short wait, else 429.
      void admitter.admit(pool, gone.signal).then((admission) => {
        waiting = false;
        if (!admission.admitted) {
          refused.inc({ pool: pool.kind satisfies PoolKind });
          if (!res.writableEnded && !res.destroyed) withRequestId(requestId, () => refuse(req, res, pathname, admission.retryAfterSeconds));
          return;
        }
        res.once("close", () => {
          admission.ticket.release();
          admitter.settle(req, res);
        });
        if (res.destroyed) return;
        if (signInPageKey !== null) options.signInPage!.capture(signInPageKey, req, res);
        dispatch(surface, pathname, req, res, requestId);
      });
    };

    // Anonymous requests at the anonymous rate, before anything else is done for them (anonymous-rate.ts).
    const proceed = (entry: Entry) => {
      if (entry.entered) return res.destroyed ? void (waiting = false) : enter();
      waiting = false;
      refused.inc({ pool: "anonymous" satisfies PoolKind });
      if (!res.writableEnded && !res.destroyed) withRequestId(requestId, () => refuse(req, res, pathname, entry.retryAfterSeconds));
    };
    const entry = pool.kind === "anonymous" ? anonymousRate.enter(gone.signal) : ({ entered: true } as const);
    if (entry instanceof Promise) void entry.then(proceed);
    else proceed(entry);
  };

  function dispatch(surface: Surface, pathname: string, req: IncomingMessage, res: ServerResponse, requestId: string): void {
    withRequestId(requestId, () => {
      if (surface === "service") {
        // Remote mode serves no service of its own: a program's request still gets JSON, never a page.
        if (options.service) options.service(req, res);
        else json(res, 404, errorBody("NOT_FOUND", `No resource at ${pathname.slice(0, 200)}.`, []), { connection: "close" });
      } else if (surface === "api") options.api(req, res);
      else options.next(req, res);
    });
  }
}
