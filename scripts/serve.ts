/**
 * The server, in production (`npm start`) and development (`npm run dev`) alike: one Node HTTP
 * server with one front door per surface (docs/architecture.md):
 *   - the service's spec paths and Kusto's REST paths → the service's router (embedded mode only),
 *     and so does any other request of a program (bearer token, JSON wanted): its 404 is JSON;
 *   - `/api/` → the dashboard's router (lib/bff/routes.ts), except next-auth's `/api/auth/*`;
 *   - everything else (pages, sign-in, assets) → Next.js.
 * Both routers are framework-free and take the same Node adapter. Next's per-request pipeline is
 * kept off the JSON paths: measured with bench:bff, it costs more than the work of a cached page.
 *
 *   tsx scripts/serve.ts          production (needs `next build` first; `npm start` does both)
 *   tsx scripts/serve.ts --dev    development with hot reload of the pages
 */
import { register } from "node:module";

// "server-only" marks modules that must never reach a browser bundle; it throws outside React's
// server condition. This whole process is server code, so resolve it under that condition to the
// package's empty module, as inside Next's server bundles. Registered before anything imports it.
register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(specifier, context, nextResolve) {
      if (specifier !== "server-only") return nextResolve(specifier, context);
      return nextResolve(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
    }`),
);

const { keepFilesPrivate } = await import("../lib/platform/private-files");
keepFilesPrivate();

const http = await import("node:http");
const path = await import("node:path");
const { default: next } = await import("next");
const { getConfig } = await import("../lib/config");
const { MAX_DRAIN_BYTES, nodeListener } = await import("../lib/platform/http/node-adapter");
const { announceStartup } = await import("../lib/dashboard-store/announce");
const { getServiceRuntime } = await import("../lib/service/runtime");
const { CLIENT_ADDRESS_HEADER, clientAddress } = await import("../lib/auth/client-address");
const { SECURITY_HEADERS } = await import("../lib/platform/http/security-headers");
const { keepRequestLoopFirst } = await import("../lib/platform/thread-priority");
const { errorBody } = await import("../lib/contract/errors");

const dev = process.argv.includes("--dev");
const config = getConfig();
if (config.LOG_FORMAT === "json") (await import("../lib/platform/log")).useJsonConsole();
const { startupWarnings } = await import("../lib/config");
for (const warning of startupWarnings(config)) console.warn(warning);
keepRequestLoopFirst(config.WORKER_THREAD_NICE);
const root = path.resolve(import.meta.dirname, "..");

const { isStartupError } = await import("../lib/platform/startup-error");

/** The service's runtime; a reason to stop that the operator can fix is printed as its one line. */
async function openRuntime() {
  try {
    return await getServiceRuntime();
  } catch (error) {
    if (!isStartupError(error)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// Remote mode serves no service of its own and opens none of its databases.
const runtime = config.dashboard.upstream.mode === "embedded" ? await openRuntime() : null;
const app = next({ dev, dir: root, port: config.PORT });
const handleNext = app.getRequestHandler();
await app.prepare();
// After Next has set up its server environment: the sessions module reads `next/headers`, whose
// request storage Next installs while it prepares.
const { apiHandler } = await import("../lib/bff/routes");
// The pages' one way to the server (docs/architecture.md, "One server in the process"): Next requires
// plantdesk-host at run time (serverExternalPackages), so its pages get this interface, not a copy of lib/.
const { provideServer } = await import("plantdesk-host");
provideServer((await import("../lib/bff/page-server")).createPageServer());
const { startMonitorSchedule } = await import("@/modules/monitors/service");
const { startAuditRetention } = await import("@/lib/dashboard-store/audit-retention");

const fallbackOrigin = `http://localhost:${config.PORT}`;
/** The client's address for per-address throttles (token endpoint, sign-in): from a trusted proxy only with TRUST_PROXY. */
const addressOf = (req: import("node:http").IncomingMessage): string => {
  const forwardedFor = req.headers["x-forwarded-for"];
  return clientAddress(req.socket.remoteAddress, Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor, config.TRUST_PROXY);
};
const handleService = runtime && nodeListener(runtime.handle, fallbackOrigin, { clientAddress: addressOf });
const handleApi = nodeListener(apiHandler, fallbackOrigin, { clientAddress: addressOf });

/**
 * Next serves pages, assets and sign-in: the only bodies it takes are sign-in forms, which are
 * small, and next-auth would read any body whole. So every request with a body that goes to Next —
 * whatever its path, since a path checked here may be one Next routes elsewhere — must declare its
 * length, within this.
 */
const MAX_NEXT_BODY_BYTES = 64 * 1024;
const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function refuse(res: import("node:http").ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { ...SECURITY_HEADERS.api, "content-type": "application/json; charset=utf-8", "cache-control": "no-store", connection: "close" });
  res.end(JSON.stringify(errorBody(code, message, [])));
}

/**
 * Refuses a request whose body Next must not get, once that body has been read and thrown away (up
 * to MAX_DRAIN_BYTES, as the JSON surfaces do), so that a client sending it in one go can read the
 * refusal instead of a reset connection; a larger one is answered at once and its connection closed.
 */
function refuseBody(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, status: number, code: string, message: string) {
  let answered = false;
  const answer = (cut: boolean) => {
    if (answered) return;
    answered = true;
    req.removeAllListeners("data");
    refuse(res, status, code, message);
    if (cut) res.once("finish", () => req.socket.destroy());
  };
  if (Number(req.headers["content-length"] ?? 0) > MAX_DRAIN_BYTES) return answer(true);
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_DRAIN_BYTES) answer(true);
  });
  req.once("end", () => answer(false));
  req.once("error", () => answer(true));
}

/**
 * What Next may believe about a request: the client's address for the sign-in throttle, and
 * X-Forwarded-* only from a trusted proxy (next-auth builds its URLs from X-Forwarded-Host).
 */
function prepareForNext(req: import("node:http").IncomingMessage): void {
  req.headers[CLIENT_ADDRESS_HEADER] = addressOf(req);
  if (!config.TRUST_PROXY) {
    for (const name of ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"]) delete req.headers[name];
  }
}

/** Next's surface: the body checks above, what Next may believe, the common headers (the pages' CSP is in proxy.ts). */
function handleNextSurface(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): void {
  if (!BODYLESS_METHODS.has(req.method ?? "GET")) {
    const declared = req.headers["content-length"];
    if (declared === undefined) return refuseBody(req, res, 411, "LENGTH_REQUIRED", "A sign-in request must declare its Content-Length.");
    if (!/^\d+$/.test(declared) || Number(declared) > MAX_NEXT_BODY_BYTES) return refuseBody(req, res, 413, "PAYLOAD_TOO_LARGE", "The sign-in request is too large.");
  }
  prepareForNext(req);
  for (const [name, value] of Object.entries(SECURITY_HEADERS.common)) res.setHeader(name, value);
  void handleNext(req, res);
}

const { createFrontDoor, DEFAULT_ADMISSION, DEFAULT_ANONYMOUS_RATE } = await import("./front-door");
const { createSignInPageCache } = await import("../lib/platform/http/sign-in-page-cache");
const { operatorProbes } = await import("./operator-probes");
const probes = await operatorProbes(runtime);
const server = http.createServer(
  createFrontDoor({
    service: handleService,
    api: handleApi,
    next: handleNextSurface,
    readiness: probes.readiness,
    metricsAllowed: probes.metricsAllowed,
    trustProxy: config.TRUST_PROXY,
    jsonLogs: config.LOG_FORMAT === "json",
    admission: {
      anonymous: { concurrent: config.ADMISSION_ANONYMOUS_CONCURRENT, queue: config.ADMISSION_ANONYMOUS_QUEUE },
      principal: { concurrent: config.ADMISSION_PRINCIPAL_CONCURRENT, queue: config.ADMISSION_PRINCIPAL_QUEUE },
      assets: DEFAULT_ADMISSION.assets,
      queueWaitMs: config.ADMISSION_QUEUE_WAIT_MS,
    },
    anonymousRate: { ...DEFAULT_ANONYMOUS_RATE, perSecond: config.ADMISSION_ANONYMOUS_PER_SECOND },
    signInPage: dev ? undefined : createSignInPageCache(),
  }),
);
server.keepAliveTimeout = 65_000;
// Backstops for what the JSON surfaces already bound themselves (the Node adapter answers a body
// not received within 10 s with 408): headers within 10 s, a whole request within 30 s, on every
// path, Next's included. Node's defaults held a slow request for 300 s.
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;

// The monitors' schedule (modules/monitors/service/scheduler.ts): every instance runs one; claims in the shared store keep it to one evaluation per tick.
let monitorSchedule: Awaited<ReturnType<typeof startMonitorSchedule>> = null;

// The demo's sign-in accounts (embedded mode), made before the server listens so the first sign-in
// finds them; this is the one production module that imports them (docs/architecture.md, "Demo apart").
const demoUsers = config.dashboard.demo ? await prepareDemoUsers() : null;

async function prepareDemoUsers() {
  const { DEMO_USERS, ensureDemoUsers } = await import("../lib/dashboard-store/demo-users");
  const { getDashboardDb } = await import("../lib/dashboard-store/database");
  try {
    const outcome = await ensureDemoUsers(await getDashboardDb(), config.dataDir, config.dashboard.demoPassword);
    return { emails: DEMO_USERS.map((user) => user.email), file: outcome.file, passwordFromEnv: config.dashboard.demoPassword !== null };
  } catch (error) {
    console.error(`Preparing the demo users failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

server.listen(config.PORT, config.HOST, () => {
  announceStartup({ url: `http://localhost:${config.PORT}`, dev, demo: demoUsers });
  startAuditRetention(config.dashboard.auditRetentionDays);
  startMonitorSchedule()
    .then((scheduler) => (monitorSchedule = scheduler))
    .catch((error: unknown) => console.error(`The monitors' schedule did not start: ${error instanceof Error ? error.message : String(error)}`));
});

async function shutdown(signal: string) {
  console.log(`\n${signal}: shutting down…`);
  server.close();
  await monitorSchedule?.stop();
  await runtime?.close();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
