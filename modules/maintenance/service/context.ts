/**
 * What every maintenance handler needs, and the check order every request goes through
 * (docs/api.md §3): token (401) → plant id syntax (400) → plant exists (404) → token's plant (403).
 * Parameters/body (400) and preconditions (412) follow in the handlers.
 */
import { ID_PATTERN } from "@/lib/contract/common";
import type { PlantTokens } from "@/modules/maintenance/store/plant-tokens";
import { ApiError, invalidInput } from "@/lib/contract/errors";
import type { ServiceRequest } from "@/lib/platform/http/types";
import type { RateLimiter } from "@/lib/platform/rate-limit";
import type { MaintenanceStore, PlantRecord } from "@/modules/maintenance/store";
import type { MeterReader } from "./plan-meter";
import type { PlanStore } from "@/modules/maintenance/store/plans";
import type { ReliabilityReads } from "@/modules/maintenance/store/reliability";
import type { AttachmentStore } from "@/modules/maintenance/store/attachments";

export interface MaintenanceContext {
  store: MaintenanceStore;
  tokens: PlantTokens;
  /** Requests per token per minute (MAINTENANCE_RATE_LIMIT_PER_MINUTE), shared by the instances when REDIS_URL is set. */
  limiter: RateLimiter;
  /** Today's date in UTC, `YYYY-MM-DD` (injectable so tests can pin it). */
  today(): string;
  /** The clock of the plans' meter readings (tests pin it with `today`). */
  now(): Date;
  /** Maintenance plans (plans/): their rows, occurrences and planned jobs. */
  plans: PlanStore;
  /** Reads a meter plan's KQL over the plant's telemetry; null when the service has no telemetry to read. */
  meter: MeterReader | null;
  /** The reliability record's reads (reliability/). */
  reliability: ReliabilityReads;
  /** Tasks' attachments, bytes and all (attachments/). */
  attachments: AttachmentStore;
}

const CHALLENGE = 'Bearer realm="maintenance"';

/** Quotes an identifier from the request for a message, cut short so a message stays readable. */
export function quoteId(id: string): string {
  return `'${id.length > 80 ? `${id.slice(0, 80)}…` : id}'`;
}

async function authenticate(req: ServiceRequest, ctx: MaintenanceContext): Promise<{ id: string; plantId: string }> {
  const match = /^Bearer +([^\s]+) *$/i.exec(req.headers.authorization ?? "");
  if (!match) {
    throw new ApiError("UNAUTHORIZED", "A plant token is required: send `Authorization: Bearer <token>`.", [], {
      "www-authenticate": CHALLENGE,
    });
  }
  const token = await ctx.tokens.verify(match[1]!);
  if (!token) {
    // Never echo the token: it may be a real one that was revoked.
    throw new ApiError("UNAUTHORIZED", "The plant token is unknown, revoked or expired.", [], {
      "www-authenticate": `${CHALLENGE}, error="invalid_token"`,
    });
  }
  req.credentialAccepted = true;
  return token;
}

/** Runs the first four checks and returns the plant the request may act on, and the token's id. */
export async function authorizePlant(req: ServiceRequest, ctx: MaintenanceContext, plantId: string): Promise<{ plant: PlantRecord; tokenId: string }> {
  const token = await authenticate(req, ctx);
  const budget = await ctx.limiter.consume(token.id);
  if (!budget.allowed) {
    throw new ApiError("RATE_LIMITED", "Too many requests with this token; retry after the time in Retry-After.", [], {
      "retry-after": String(budget.retryAfterSeconds),
    });
  }
  if (!ID_PATTERN.test(plantId)) {
    throw invalidInput(`Invalid plant id ${quoteId(plantId)}.`, [{ field: "plantId", problem: "malformed identifier" }]);
  }
  const plant = await ctx.store.findPlant(plantId);
  if (!plant) throw new ApiError("PLANT_NOT_FOUND", `Plant ${quoteId(plantId)} does not exist.`);
  if (plant.id !== token.plantId) {
    throw new ApiError("FORBIDDEN", `This token is not valid for plant ${quoteId(plantId)}.`);
  }
  return { plant, tokenId: token.id };
}

/** 400 naming a malformed path identifier (part id, task id). */
export function checkPathId(value: string, field: string): string {
  if (!ID_PATTERN.test(value)) {
    throw invalidInput(`Invalid ${field} ${quoteId(value)}.`, [{ field, problem: "malformed identifier" }]);
  }
  return value;
}

/** The query string as a plain object for a zod schema; unknown parameters are then ignored. */
export function queryObject(req: ServiceRequest): Record<string, string> {
  return Object.fromEntries(req.query);
}
