import "server-only";
/**
 * Every `/api/` route of the dashboard, as data: its permission, its audit action for writes, and
 * its work. The route files under `app/api/` re-export these, nothing more. Paths mirror the
 * service's so the same zod schemas validate both sides.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { ROLE_PERMISSIONS } from "@/lib/auth/roles";
import { parseWith } from "@/lib/service/http/body";
import { ServiceError } from "@/lib/service/errors";
import { ZPageQuery, ZWriteResult } from "@/lib/upstream/schemas/common";
import {
  ZAssetPage,
  ZJobDonePage,
  ZLookupValuePage,
  ZPartPage,
  ZPlannedJobPage,
  ZStockLevel,
  ZStockLevelEntryPage,
  ZTask,
  ZTaskCreation,
  ZTaskPage,
  ZTransitionRequest,
} from "@/lib/upstream/schemas/maintenance";
import { ZTelemetryQueryRequest } from "@/lib/upstream/schemas/telemetry";
import { auditCsv, queryAudit } from "./audit";
import { BffError, forbidden, invalidInput } from "./errors";
import { bffRoute, readJson, reachablePlants, type BffContext } from "./handler";
import { ZHistoryRecord, ZHistoryUpdate, listHistory, recordQuery, updateHistory } from "./query-history";

/** The shared schemas' checks, answered in the dashboard's error type (same body as the service's). */
function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  try {
    return parseWith(schema, value, what);
  } catch (error) {
    if (error instanceof ServiceError) throw new BffError(error.status, error.code, error.message, error.data);
    throw error;
  }
}

const query = (context: BffContext) => new URL(context.request.url).searchParams;
const segment = (value: string | undefined) => encodeURIComponent(value ?? "");

/** A read passed through: same query parameters, same envelope, validated on the way. */
function maintenanceRead(path: (context: BffContext) => string, schema: z.ZodType, extension?: string) {
  return bffRoute({
    permission: "maintenance:read",
    async run(context) {
      const result = await context.upstream.maintenance({
        plantId: context.plant!.id,
        method: "GET",
        path: path(context),
        query: query(context),
        schema,
        extension,
        signal: context.request.signal,
      });
      return { body: result.data, json: result.body, headers: result.headers };
    },
  });
}

export const me = bffRoute({
  permission: "maintenance:read",
  async run({ user, upstream }) {
    return {
      body: {
        email: user.email,
        name: user.name,
        role: user.role,
        plants: reachablePlants(user, upstream),
        permissions: ROLE_PERMISSIONS[user.role],
        serviceMode: upstream.mode,
      },
    };
  },
});

export const jobsDone = maintenanceRead(() => "/jobs-done", ZJobDonePage);
export const jobsPlanned = maintenanceRead(() => "/jobs-planned", ZPlannedJobPage);
export const assets = maintenanceRead(() => "/assets", ZAssetPage);
export const tasks = maintenanceRead(() => "/tasks", ZTaskPage);
export const task = maintenanceRead((c) => `/tasks/${segment(c.params.taskId)}`, ZTask, "single-task reads");
export const lookupValues = maintenanceRead(() => "/lookup-values", ZLookupValuePage, "lookup values");
export const parts = maintenanceRead(() => "/parts", ZPartPage, "the parts list");
export const stockLevels = maintenanceRead((c) => `/parts/${segment(c.params.partId)}/stock-levels`, ZStockLevelEntryPage, "stock-level history");

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,100}$/;

export const createTask = bffRoute({
  permission: "tasks:create",
  auditAction: "task.create",
  async run(context) {
    const body = await readJson(context.request);
    const task = validate(ZTaskCreation, body, "task");
    context.audit.detail = { assetTagNumber: task.asset.tagNumber, priority: task.priority };
    // The browser may name its attempt (a retried click then creates one task); else one per request.
    const offered = context.request.headers.get("idempotency-key");
    if (offered !== null && !IDEMPOTENCY_KEY.test(offered)) {
      throw invalidInput("Idempotency-Key must be 1–100 letters, digits, '_' or '-'.", [{ field: "Idempotency-Key", problem: "malformed" }]);
    }
    const result = await context.upstream.maintenance({
      plantId: context.plant!.id,
      method: "POST",
      path: "/tasks",
      body,
      schema: ZWriteResult,
      // Scoped to the user, so two users' keys never meet.
      idempotencyKey: `u${context.user.id}-${offered ?? randomUUID()}`,
    });
    const id = result.data.data[0]?.id;
    context.audit.target = typeof id === "string" ? id : null;
    return { body: result.data };
  },
});

export const transitionTask = bffRoute({
  permission: "tasks:transition",
  auditAction: "task.transition",
  async run(context) {
    const body = await readJson(context.request);
    const transition = validate(ZTransitionRequest, body, "transition");
    context.audit.detail = { to: transition.to };
    const result = await context.upstream.maintenance({
      plantId: context.plant!.id,
      method: "POST",
      path: `/tasks/${segment(context.params.taskId)}/transitions`,
      body,
      schema: ZWriteResult,
      extension: "task transitions",
    });
    return { body: result.data };
  },
});

export const submitStockLevel = bffRoute({
  permission: "stock:submit",
  auditAction: "stock-level.submit",
  async run(context) {
    const body = await readJson(context.request);
    const level = validate(ZStockLevel, body, "stock level");
    context.audit.detail = { quantity: level.quantity, unit: level.unit, isShort: level.isShort ?? null };
    const result = await context.upstream.maintenance({
      plantId: context.plant!.id,
      method: "PUT",
      path: `/parts/${segment(context.params.partId)}/stock-level`,
      body,
      schema: ZWriteResult,
    });
    return { body: result.data };
  },
});

/**
 * A telemetry query for plants the user may see. Without `plantIds` it covers all of the user's
 * plants; the plants must belong to one customer, since telemetry is kept per customer and each
 * telemetry client sees one customer only.
 */
export const telemetryQuery = bffRoute({
  permission: "telemetry:query",
  async run(context) {
    const body = await readJson(context.request);
    const request = validate(ZTelemetryQueryRequest, body, "query");
    const reachable = reachablePlants(context.user, context.upstream);
    const requested = request.plantIds ?? reachable.map((plant) => plant.id);
    const plants = requested.map((id) => {
      const plant = reachable.find((candidate) => candidate.id === id);
      if (!plant) throw forbidden(`You have no access to plant ${id}.`);
      return plant;
    });
    if (plants.length === 0) throw forbidden("You have no plants.");
    const customers = new Set(plants.map((plant) => plant.customerId));
    if (customers.size > 1) {
      throw invalidInput("Choose plants of one customer: telemetry is kept per customer.", [
        { field: "plantIds", problem: "plants of more than one customer" },
      ]);
    }
    const started = performance.now();
    const result = await context.upstream.telemetryQuery(
      { ...(body as object), plantIds: plants.map((plant) => plant.id) },
      plants[0]!.customerId,
      context.request.signal,
    );
    // The explorer records the run in the history itself (POST /api/telemetry/history).
    const durationMs = Math.round(performance.now() - started);
    return { body: result.data, json: result.body, headers: { ...result.headers, "x-query-duration-ms": String(durationMs) } };
  },
});

export const queryHistory = bffRoute({
  permission: "telemetry:query",
  async run({ request, db, user }) {
    const starred = new URL(request.url).searchParams.get("starred") === "true";
    return { body: { data: listHistory(db, user.email, { starredOnly: starred }) } };
  },
});

export const saveQuery = bffRoute({
  permission: "telemetry:query",
  async run({ request, db, user }) {
    const entry = validate(ZHistoryRecord, await readJson(request), "history entry");
    return { body: recordQuery(db, user.email, entry) };
  },
});

export const updateQuery = bffRoute({
  permission: "telemetry:query",
  async run({ request, db, user }) {
    const update = validate(ZHistoryUpdate, await readJson(request), "history update");
    const entry = updateHistory(db, user.email, update);
    if (!entry) throw new BffError(404, "NOT_FOUND", `No history entry ${update.id}.`);
    return { body: entry };
  },
});

export const auditLog = bffRoute({
  permission: "audit:read",
  async run({ request, db }) {
    const params = new URL(request.url).searchParams;
    const filter = {
      userEmail: params.get("user") ?? undefined,
      plantId: params.get("plantId") ?? undefined,
      action: params.get("action") ?? undefined,
      outcome: params.get("outcome") ?? undefined,
      from: params.get("from") ?? undefined,
      to: params.get("to") ?? undefined,
    };
    if (params.get("format") === "csv") {
      return new Response(auditCsv(db, filter), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="plantdesk-audit-${new Date().toISOString().slice(0, 10)}.csv"`,
          "cache-control": "no-store",
        },
      });
    }
    const { page, pageSize } = validate(ZPageQuery, Object.fromEntries(params), "query parameters");
    return { body: queryAudit(db, filter, page, pageSize) };
  },
});
