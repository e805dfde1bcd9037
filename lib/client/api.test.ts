/**
 * The browser's API client over real HTTP: each refusal arrives as an ApiError with the server's
 * status, code, message and data (the error-body schema is loaded only for these answers), and a
 * body that is not the contract's error body is reported by its status.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiFetch } from "./api";

const ANSWERS: Record<string, { status: number; body: string }> = {
  "/ok": { status: 200, body: JSON.stringify({ page: 1, data: [{ id: "T1" }] }) },
  "/refused": { status: 412, body: JSON.stringify({ status: "ERROR", code: "INVALID_TRANSITION", message: "CLOSED → PENDING is not allowed.", data: [{ from: "CLOSED" }] }) },
  "/write-error": { status: 200, body: JSON.stringify({ status: "ERROR", code: "UNIT_MISMATCH", message: "The part is counted in KG.", data: [] }) },
  "/written": { status: 200, body: JSON.stringify({ status: "OK", data: [{ id: "T2" }] }) },
  "/proxy-page": { status: 502, body: "<html>Bad gateway</html>" },
  "/not-the-contract": { status: 400, body: JSON.stringify({ status: "ERROR", code: 17 }) },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const answer = ANSWERS[request.url ?? ""] ?? { status: 404, body: "" };
    response.writeHead(answer.status, { "content-type": answer.body.startsWith("{") ? "application/json" : "text/html" });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(path: string): Promise<ApiError> {
  const error = await apiFetch(base + path).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("apiFetch", () => {
  it("returns a successful answer as sent", async () => {
    expect(await apiFetch(base + "/ok")).toEqual({ page: 1, data: [{ id: "T1" }] });
    expect(await apiFetch(base + "/written")).toEqual({ status: "OK", data: [{ id: "T2" }] });
  });

  it("keeps a refusal's status, code, message and data", async () => {
    const error = await failure("/refused");
    expect([error.status, error.code, error.message, error.data]).toEqual([412, "INVALID_TRANSITION", "CLOSED → PENDING is not allowed.", [{ from: "CLOSED" }]]);
  });

  it("treats a write answered 200 with an ERROR result as a failure", async () => {
    const error = await failure("/write-error");
    expect([error.status, error.code]).toEqual([200, "UNIT_MISMATCH"]);
  });

  it("reports an answer that is not the contract's error body by its status", async () => {
    expect([(await failure("/proxy-page")).code, (await failure("/not-the-contract")).code]).toEqual(["HTTP_502", "HTTP_400"]);
  });
});
