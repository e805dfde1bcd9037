/**
 * A server process for bench/maintenance.ts (run separately so the load generator does not share
 * its event loop). Prints `{"port": N}` once listening.
 *   service   node:http + the service listener + runtime.handle: the path scripts/serve.ts uses
 *             for the spec's paths (adapter, router, token check, rate limit, validation).
 *   baseline  bare node:http calling the same lib/service function for the jobs-done page and
 *             JSON.stringify: what this machine can do at all.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getConfig } from "../lib/config";
import { nodeListener } from "../lib/platform/http/node-adapter";
import { jobsDonePage } from "../lib/service/maintenance/reads";
import { createServiceRuntime } from "../lib/service/runtime";

const mode = process.argv[2];
const runtime = await createServiceRuntime(getConfig());

const listener =
  mode === "service"
    ? nodeListener(runtime.handle, "http://localhost")
    : mode === "baseline"
      ? async (req: http.IncomingMessage, res: http.ServerResponse) => {
          const query = Object.fromEntries(new URL(req.url ?? "/", "http://localhost").searchParams);
          const body = JSON.stringify(await jobsDonePage(runtime.maintenance, "RTM1", query));
          res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
          res.end(body);
        }
      : undefined;
if (!listener) {
  console.error("usage: maintenance-server.ts service|baseline");
  process.exit(2);
}

const server = http.createServer(listener);
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.once("SIGTERM", () => {
  server.close();
  void runtime.close().then(() => process.exit(0));
});
