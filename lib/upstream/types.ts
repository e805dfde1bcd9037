import "server-only";
/**
 * The dashboard's one interface to the service, with two implementations: remote (HTTP to a
 * service that follows the spec, tokens held here) and embedded (the service's own domain
 * functions in this process, as a trusted caller). Both answer the same values and raise the same
 * ApiErrors; a contract test runs the same cases against both (docs/architecture.md).
 */
import type { MaintenanceOperationId, MaintenanceOutput } from "@/modules/maintenance/contract/maintenance";
import type { TTelemetryQueryRequest, TTelemetryQueryResponse } from "@/lib/contract/telemetry";
import type { TQueryStages } from "@/lib/contract/explorer";

/** One engine query's stages and the rows it scanned (lib/service/telemetry/query-endpoint.ts reports them). */
type QueryStats = TQueryStages & { rowsScanned: number | null };

export interface PlantInfo {
  id: string;
  name: string;
  /** Unknown in remote mode unless PLANT_TOKENS says. */
  customerId: string | null;
}

export interface MaintenanceCall {
  plantId: string;
  /** Path parameters below the plant (`taskId`, `partId`). */
  params?: Record<string, string>;
  query?: URLSearchParams;
  /** The JSON body of a write, as the browser sent it (the service validates it). */
  body?: unknown;
  /** A file's body (an attachment's upload), as the browser sent it. */
  file?: { bytes: Uint8Array | null; contentType: string | undefined; tooLarge: boolean };
  /** Makes a task creation safe to retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface UpstreamAnswer<T> {
  value: T;
  /**
   * `value` as JSON text when the upstream already had it (remote: its validated body; embedded
   * telemetry: the engine's rendering, in UTF-8 parts).
   */
  json?: string | readonly Uint8Array[];
  /** Headers of the answer the browser may see (`retry-after`, `x-query-cost`, …). */
  headers: Record<string, string>;
  /** A file's bytes (an attachment's download): the answer is these, under `headers`' content type, not `value`. */
  bytes?: Uint8Array;
}

/** A telemetry answer: its rows counted, and what the engine says of its work (embedded only). */
export interface TelemetryAnswer extends UpstreamAnswer<TTelemetryQueryResponse> {
  rowCount: number;
  stats?: QueryStats;
}

/** Whom a telemetry query is for: the plants' customer, and the signed-in user (for fair budgets). */
export interface QueryCaller {
  customerId: string | null;
  userKey: string;
  /**
   * A budget of its own, within a shared one: a monitor spends at most `perMinute` of its plant's
   * monitors' budget `within` (modules/monitors). Embedded: the service's own throttle; remote: the
   * dashboard's (a remote service budgets per client, and the dashboard is one client).
   */
  budget?: { perMinute: number; within: string };
}

export interface Upstream {
  readonly mode: "embedded" | "remote";
  plants(): PlantInfo[];
  maintenance<Id extends MaintenanceOperationId>(id: Id, call: MaintenanceCall): Promise<UpstreamAnswer<MaintenanceOutput<Id>>>;
  /** `countScanned`: also count the rows the query scanned (embedded only; remote services do not say). */
  telemetryQuery(request: TTelemetryQueryRequest, caller: QueryCaller, signal?: AbortSignal, options?: { countScanned?: boolean }): Promise<TelemetryAnswer>;
}
