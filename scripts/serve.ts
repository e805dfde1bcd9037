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
import path from "node:path";
import next from "next";
import { getConfig } from "../lib/config";
import { isServicePath } from "../lib/service/paths";
import { getServiceRuntime } from "../lib/service/runtime";
import { fromNodeRequest, sendNodeResponse } from "../lib/service/http/node-adapter";
import { announceStartup } from "../lib/service/startup";

const dev = process.argv.includes("--dev");
const config = getConfig();
const root = path.resolve(import.meta.dirname, "..");

const runtime = await getServiceRuntime();
const app = next({ dev, dir: root, port: config.PORT });
const handleNext = app.getRequestHandler();
await app.prepare();

const fallbackOrigin = `http://localhost:${config.PORT}`;
const server = http.createServer((req, res) => {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  if (!isServicePath(pathname)) {
    void handleNext(req, res);
    return;
  }
  void (async () => {
    try {
      const request = await fromNodeRequest(req, fallbackOrigin);
      sendNodeResponse(res, await runtime.handle(request), request.method === "HEAD");
    } catch (error) {
      console.error(`[server] ${req.method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ERROR", code: "INTERNAL_ERROR", message: "An unexpected error occurred.", data: [] }));
    }
  })();
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
