/**
 * Real HTTP servers for the client's tests: a scripted one that misbehaves on demand, and the real
 * embedded service on its own temporary database (a "remote" service on another port).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "@/lib/config";
import { fromNodeRequest, sendNodeResponse } from "@/lib/platform/http/node-adapter";
import type { ServiceResponse } from "@/lib/platform/http/types";
import { createServiceRuntime, type ServiceRuntime } from "@/lib/service/runtime";

interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Answer = { status: number; headers?: Record<string, string>; body: string } | "hang";
export type Script = (request: RecordedRequest, index: number) => Answer | Promise<Answer>;

export interface RunningServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** On `port`, or a free one (0). */
function listen(server: http.Server, port = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startScriptedServer(script: Script): Promise<RunningServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString() };
    requests.push(recorded);
    const answer = await script(recorded, requests.length - 1);
    if (answer === "hang") return; // never answers: the client's timeout must fire
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(answer.body);
  });
  const url = await listen(server);
  return { url, requests, close: () => closeServer(server) };
}

export interface RunningService extends RunningServer {
  runtime: ServiceRuntime;
  dataDir: string;
}

/**
 * The real service on a temporary database, over HTTP on a free port. `intercept` may answer
 * instead of the service, or after it (to lose its answer on the way back).
 */
export async function startServiceServer(
  intercept?: (request: RecordedRequest, index: number, forward: () => Promise<ServiceResponse>) => Answer | ServiceResponse | Promise<Answer | ServiceResponse>,
  env: Record<string, string> = {},
  port = 0,
): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pd-remote-"));
  const runtime = await createServiceRuntime(parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, DEMO_TELEMETRY_DAYS: "1", ...env }));
  const requests: RecordedRequest[] = [];
  let origin = "";
  const server = http.createServer(async (req, res) => {
    const serviceRequest = await fromNodeRequest(req, origin);
    const body = serviceRequest.body ? Buffer.from(serviceRequest.body).toString() : "";
    const recorded = { method: serviceRequest.method, path: serviceRequest.path, headers: req.headers, body };
    requests.push(recorded);
    const forward = () => runtime.handle(serviceRequest);
    const answer = intercept ? await intercept(recorded, requests.length - 1, forward) : await forward();
    if (answer === "hang") return;
    sendNodeResponse(res, { status: answer.status, headers: answer.headers ?? {}, body: answer.body });
  });
  origin = await listen(server, port);
  return {
    url: origin,
    requests,
    runtime,
    dataDir,
    async close() {
      await closeServer(server);
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
