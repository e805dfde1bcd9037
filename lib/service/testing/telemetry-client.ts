/**
 * Test support for the telemetry API over real HTTP (on a service from startCheckedService): a
 * client's token issued directly by the runtime, and a query over the recent demo telemetry.
 */
import type { ServiceRuntime } from "../runtime";
import { TELEMETRY_QUERY_PATH } from "@/lib/contract/spec-paths";
import type { ApiResponse, CheckedService } from "./openapi-checked-client";


/** A token of a new client of the customer (no OAuth round trip: the tests here are about queries). */
export async function issueToken(runtime: ServiceRuntime, customerId: string): Promise<string> {
  const created = await runtime.telemetry.clients.create(customerId);
  return runtime.telemetry.tokens.issue({ clientId: created.client_id, customerId });
}

/** The two days up to a minute from now: the whole of the one day of demo telemetry tests generate. */
export function recentRange(): { start: Date; end: Date } {
  const end = new Date(Date.now() + 60_000);
  return { start: new Date(end.getTime() - 2 * 86_400_000), end };
}

/** POSTs `text` as the query over recentRange(). */
export function queryRecent(service: CheckedService, token: string, text: string): Promise<ApiResponse> {
  const { start, end } = recentRange();
  return service.client.call("POST", TELEMETRY_QUERY_PATH, { token, body: { query: text, startTime: start.toISOString(), endTime: end.toISOString() } });
}
