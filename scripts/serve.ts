/**
 * The production server: one Node HTTP server in front of Next.js. Requests to the embedded
 * service's spec paths go straight to `lib/service` (no Next.js request pipeline: the service is
 * JSON work and Next's per-request overhead would halve its throughput); everything else — pages
 * and the dashboard's `/api/` routes — goes to Next.js. Both share one service runtime (one SQLite
 * connection, one DuckDB instance per customer) through `getServiceRuntime()`.
 *
 *   tsx scripts/serve.ts          production (needs `next build` first; `npm start` does both)
 *   tsx scripts/serve.ts --dev    development with hot reload
 */
import http from "node:http";
import { register } from "node:module";
import path from "node:path";
import next from "next";
import { getConfig } from "../lib/config";
import { isServicePath } from "../lib/service/paths";
import { getServiceRuntime } from "../lib/service/runtime";
import { serviceListener } from "../lib/service/http/node-listener";
import { announceStartup } from "../lib/service/startup";

const dev = process.argv.includes("--dev");
const config = getConfig();
const root = path.resolve(import.meta.dirname, "..");

const runtime = await getServiceRuntime();
const app = next({ dev, dir: root, port: config.PORT });
const handleNext = app.getRequestHandler();
await app.prepare();

const fallbackOrigin = `http://localhost:${config.PORT}`;
const handleService = serviceListener(runtime.handle, fallbackOrigin);
// The dashboard's /api/ routes take the same short cut in production (in development Next serves
// them, with hot reload). Their modules import "server-only": the hook lets plain Node load them.
let handleApi: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null = null;
if (!dev) {
  register("./server-only-hook.mjs", import.meta.url);
  handleApi = (await import("../lib/bff/node-listener")).apiListener(fallbackOrigin);
}
const server = http.createServer((req, res) => {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  if (isServicePath(pathname)) handleService(req, res);
  else if (!handleApi?.(req, res)) void handleNext(req, res);
});
server.keepAliveTimeout = 65_000;

server.listen(config.PORT, config.HOST, () => {
  announceStartup({ url: `http://localhost:${config.PORT}`, runtime, dev });
});

async function shutdown(signal: string) {
  console.log(`\n${signal}: shutting down…`);
  server.close();
  await runtime.close();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
