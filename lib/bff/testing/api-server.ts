/**
 * The dashboard's `/api/` router (or any handler) behind a real node:http server on a free loopback
 * port, through the same Node adapter the production server uses. Tests call it with fetch, as the
 * browser does.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nodeListener } from "@/lib/platform/http/node-adapter";
import type { ServiceRequest, ServiceResponse } from "@/lib/platform/http/types";
import { apiHandler } from "../routes";

export interface ApiServer {
  url: string;
  /** fetch on this server; a JSON body gets its content type. */
  call(path: string, init?: { method?: string; body?: unknown; cookie?: string | null; headers?: Record<string, string> }): Promise<Response>;
  /** Closes the server and every connection still open to it. */
  close(): Promise<void>;
}

export async function startApiServer(
  handler: (request: ServiceRequest) => Promise<ServiceResponse> = apiHandler,
  options: { bodyTimeoutMs?: number } = {},
): Promise<ApiServer> {
  const server = http.createServer(nodeListener(handler, "http://127.0.0.1", options));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    call(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.cookie) headers.cookie = init.cookie;
      if (init.body !== undefined) headers["content-type"] ??= "application/json";
      return fetch(url + path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
