/**
 * The token endpoint's per-client throttle counts per (client, address): a stranger at another
 * address who knows a client id and hammers the endpoint with wrong secrets uses up only their own
 * allowance, and the genuine client still gets its token. Real HTTP from two loopback addresses
 * (127.0.0.2 is the stranger), the real service on its own temporary database.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceServer, type RunningService } from "@/lib/upstream/testing/servers";
import { fromNodeRequest, sendNodeResponse } from "@/lib/platform/http/node-adapter";
import type { AddressInfo } from "node:net";

let service: RunningService;
let url: URL;
let server: http.Server;
let client: { client_id: string; client_secret: string; scope: string };

beforeAll(async () => {
  service = await startServiceServer(undefined, { TOKEN_RATE_LIMIT_PER_CLIENT_PER_MINUTE: "3", TOKEN_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: "1000" });
  client = await service.runtime.telemetry.clients.create("CUST-ACME");
  // The production adapter, with the socket's address as the client's (no proxy).
  server = http.createServer(async (req, res) => {
    sendNodeResponse(res, await service.runtime.handle(await fromNodeRequest(req, "http://127.0.0.1", res, undefined, (r) => r.socket.remoteAddress ?? "")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v2.0/token`);
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await service.close();
});

/** A token request from `localAddress`. */
function requestToken(localAddress: string, secret: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: secret, scope: client.scope }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", localAddress, agent: false, headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(form) } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.once("error", reject);
    req.end(form);
  });
}

describe("token requests for one client from two addresses", () => {
  it("a stranger's wrong secrets lock out only the stranger's address, not the client", async () => {
    const stranger: number[] = [];
    for (let i = 0; i < 6; i += 1) stranger.push((await requestToken("127.0.0.2", "wrong-secret")).status);
    expect(stranger).toEqual([401, 401, 401, 429, 429, 429]);
    const genuine = await requestToken("127.0.0.1", client.client_secret);
    expect(genuine.status).toBe(200);
    expect(genuine.body).toMatchObject({ token_type: "Bearer" });
  });
});
