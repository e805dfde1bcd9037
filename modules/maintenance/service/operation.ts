/**
 * The shape of every maintenance operation of the service: the plant is already checked (by the
 * HTTP endpoint for a plant token, or by the dashboard's embedded client for its trusted caller);
 * the operation checks its path resources, then its parameters and body, then its preconditions
 * (docs/api.md §3), and returns the value to answer with.
 */
import type { MaintenanceContext } from "./context";
import type { PlantRecord } from "@/modules/maintenance/store";

interface OperationInput {
  /** Path parameters below the plant (`taskId`, `partId`), percent-decoded, not yet checked. */
  params: Record<string, string>;
  /** The query string; unknown parameters are ignored. */
  query: Record<string, string>;
  /**
   * The request's JSON body, read only when the operation gets to it: path resources are
   * checked first, so an unknown part is 404 even when the body is also wrong.
   */
  body(): unknown;
  /** A file's body (the operations whose contract names `rawBody`): its bytes, declared media type, and whether it was over the route's limit. */
  file?(): RawBody;
  idempotencyKey?: string;
  /** The authenticated caller, kept in a task's history: the plant token's id, or `dashboard`. */
  client: string;
}

/** A request body taken as a file, not parsed. */
interface RawBody {
  bytes: Uint8Array | null;
  contentType: string | undefined;
  tooLarge: boolean;
}

export interface OperationResult {
  value: unknown;
  headers?: Record<string, string>;
  /** The answer is these bytes, not `value` as JSON (`headers` then carry their content type). */
  bytes?: Uint8Array;
}

export type Operation = (ctx: MaintenanceContext, plant: PlantRecord, input: OperationInput) => Promise<OperationResult>;
