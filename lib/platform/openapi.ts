/**
 * The OpenAPI 3.1 generator: a document from THE zod schemas (lib/contract) and the operations
 * the routes are built from, so a document cannot describe a different API than the one served.
 * Each domain contributes `ApiOperation`s and, when it needs one, a security scheme; which
 * contributions make the service's document is decided above the kernel (lib/service/openapi.ts).
 */
import { z } from "zod";
import { ZErrorBody } from "@/lib/contract/common";
import { ERROR_STATUS, type ErrorCode } from "@/lib/contract/errors";

type JsonSchema = Record<string, unknown>;

export interface ApiOperation {
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** Path pattern with `{name}` segments, as in the router. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Names of security schemes (see ApiContribution.securitySchemes); empty for public endpoints. */
  security: string[];
  /** Descriptions of the path's `{name}` parameters. */
  pathParams?: Record<string, { description: string; schema: z.ZodType }>;
  /** A zod object whose members are the query parameters. */
  query?: z.ZodObject;
  headers?: { name: string; description: string; schema: z.ZodType; required?: boolean }[];
  /** `contentTypes`: a file's body, the same schema under each of these media types (default: JSON). */
  requestBody?: { schema: z.ZodType; contentType?: string; contentTypes?: readonly string[] };
  /** The 200 response. */
  response: { schema: z.ZodType; description: string; contentType?: string; contentTypes?: readonly string[] };
  /** Error codes this operation can answer with (statuses derive from docs/api.md §4). */
  errors: ErrorCode[];
  /** Non-standard error responses, e.g. the token endpoint's OAuth errors: status → schema (none: no body). */
  otherResponses?: Record<number, { schema?: z.ZodType; description: string }>;
  /** A GET answered with an ETag and revalidated with If-None-Match (platform/http/conditional.ts). */
  conditional?: boolean;
}

const CONDITIONAL_GET = {
  parameter: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "The ETag of an answer the client holds: when the answer is still byte for byte the same, 304 with no body.",
    schema: { type: "string" },
  },
  etag: { ETag: { description: "Strong tag of this answer's bytes; send it back as If-None-Match to revalidate.", schema: { type: "string" } } },
  notModified: { description: "Not modified: the answer named by If-None-Match is still the current one (no body)." },
};

export interface ApiContribution {
  operations: ApiOperation[];
  securitySchemes?: Record<string, JsonSchema>;
  /** Markdown paragraphs added to the document's description (choices the spec left open). */
  notes?: string[];
}

/** Codes every service endpoint can answer with, whatever its own logic. */
const ALWAYS: ErrorCode[] = ["INTERNAL_ERROR"];

function schemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("Every schema in the OpenAPI document needs .meta({ id }).");
  return id;
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${schemaId(schema)}` });

/** A body's `content`: the schema under its one media type, or under each of several (a file). */
function contentOf(body: { contentType?: string; contentTypes?: readonly string[] }, schema: z.ZodType): Record<string, unknown> {
  const types = body.contentTypes ?? [body.contentType ?? "application/json"];
  return Object.fromEntries(types.map((type) => [type, { schema: ref(schema) }]));
}

/**
 * JSON Schema of a parameter: a registered schema by reference, anything else inline and
 * request-side (io: input), so a default does not make the parameter look required.
 */
function parameterSchema(schema: z.ZodType): JsonSchema {
  if (z.globalRegistry.get(schema)?.id) return ref(schema);
  const json = z.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
    metadata: z.registry<{ id?: string }>(), // inline everything; descriptions go on the parameter
  }) as JsonSchema;
  delete json.$schema;
  const fallback = schema.safeParse(undefined);
  if (fallback.success && fallback.data !== undefined) json.default = fallback.data;
  return json;
}

/** Collects every component id a JSON value refers to. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === "object") {
    for (const [key, member] of Object.entries(value)) {
      if (key === "$ref" && typeof member === "string" && member.startsWith("#/components/schemas/")) {
        found.add(member.slice("#/components/schemas/".length));
      } else refsIn(member, found);
    }
  }
  return found;
}

/** Whatever zod schemas a value holds (a schema's definition, an operation, a list of them). */
function schemasIn(value: unknown, found: Set<z.ZodType>): Set<z.ZodType> {
  if (value === null || typeof value !== "object") return found;
  if ("_zod" in value) {
    const schema = value as z.ZodType;
    if (found.has(schema)) return found;
    found.add(schema);
    // A `.meta()` clone keeps its registered original as parent (referenced by id in the output).
    return schemasIn([schema._zod.def, schema._zod.parent], found);
  }
  for (const member of Array.isArray(value) ? value : Object.values(value)) schemasIn(member, found);
  return found;
}

/**
 * The schemas with an id that this document uses, in a registry of their own. zod's global
 * registry lives on globalThis and the production server holds two copies of lib/contract (its
 * own and Next's bundle), so the global one may name the same id twice; these are the very
 * objects the operations below were built from.
 */
function documentRegistry(contributions: ApiContribution[]) {
  const registry = z.registry<{ id: string }>();
  for (const schema of schemasIn([contributions, ZErrorBody], new Set())) {
    const meta = z.globalRegistry.get(schema);
    if (meta?.id) registry.add(schema, { ...meta, id: meta.id });
  }
  return registry;
}

function registryExport(registry: ReturnType<typeof documentRegistry>, io: "input" | "output"): Record<string, JsonSchema> {
  return (
    z.toJSONSchema(registry, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, JsonSchema> }
  ).schemas;
}

/** The registered schemas `roots` refer to, directly or through each other, from one export. */
function closure(roots: Set<string>, exported: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (result[id]) continue;
    const schema = exported[id];
    if (!schema) throw new Error(`Schema ${id} is referenced but not registered.`);
    const { $id: _id, $schema: _schema, ...rest } = schema;
    result[id] = rest;
    for (const next of refsIn(rest, new Set())) if (!result[next]) queue.push(next);
  }
  return result;
}

/**
 * Components = every registered schema reachable from the operations. zod's registry export
 * writes the `$ref`s between them; `$id`/`$schema` are dropped since components share the
 * document's base URI. Request bodies are described as zod accepts them (io: input: unknown
 * members allowed, defaults optional), responses as the service produces them (io: output).
 */
function components(paths: Record<string, Record<string, { requestBody?: unknown }>>, registry: ReturnType<typeof documentRegistry>): Record<string, JsonSchema> {
  const requestRoots = new Set<string>();
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations)) refsIn(op.requestBody, requestRoots);
  }
  const responseRoots = refsIn(
    Object.values(paths).map((operations) => Object.values(operations).map(({ requestBody: _, ...rest }) => rest)),
    new Set(),
  );
  const merged = { ...closure(requestRoots, registryExport(registry, "input")), ...closure(responseRoots, registryExport(registry, "output")) };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
}

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, ...ALWAYS]) {
    const status = ERROR_STATUS[code];
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = {};
    if (status === 401) headers["WWW-Authenticate"] = { description: "`Bearer` challenge.", schema: { type: "string" } };
    if (status === 405) headers.Allow = { description: "Methods the path accepts.", schema: { type: "string" } };
    if (status === 429) headers["Retry-After"] = { description: "Seconds until the budget renews.", schema: { type: "integer" } };
    responses[String(status)] = {
      description: `Error: ${list.join(", ")}.`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { "application/json": { schema: ref(ZErrorBody) } },
    };
  }
  return responses;
}

/**
 * Every operation documents what a client error looks like. One that has no 4xx of its own (the
 * public discovery, key and document endpoints) gets the `4XX` class: the service itself answers
 * them with 200 or 500, but a service that follows the spec, or a proxy in front of it, may still
 * answer 4xx, and every 4xx of the service carries ErrorBody.
 */
function clientErrorFallback(responses: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(responses).some((status) => status.startsWith("4"))) return {};
  return {
    "4XX": {
      description: "This operation has no client error of its own; any 4xx it meets (a proxy's, or a stricter service's) has this body.",
      content: { "application/json": { schema: ref(ZErrorBody) } },
    },
  };
}

function operationObject(op: ApiOperation): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    const param = op.pathParams?.[name!];
    parameters.push({
      name,
      in: "path",
      required: true,
      ...(param ? { description: param.description, schema: parameterSchema(param.schema) } : { schema: { type: "string" } }),
    });
  }
  for (const [name, schema] of Object.entries(op.query?.shape ?? {}) as [string, z.ZodType][]) {
    const description = z.globalRegistry.get(schema)?.description;
    parameters.push({
      name,
      in: "query",
      required: !schema.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: parameterSchema(schema),
    });
  }
  for (const header of op.headers ?? []) {
    parameters.push({
      name: header.name,
      in: "header",
      required: header.required ?? false,
      description: header.description,
      schema: parameterSchema(header.schema),
    });
  }
  if (op.conditional) parameters.push(CONDITIONAL_GET.parameter);
  const other = Object.fromEntries(
    Object.entries(op.otherResponses ?? {}).map(([status, r]) => [
      status,
      { description: r.description, ...(r.schema ? { content: { "application/json": { schema: ref(r.schema) } } } : {}) },
    ]),
  );
  const responses: Record<string, unknown> = {
    "200": {
      description: op.response.description,
      ...(op.conditional ? { headers: CONDITIONAL_GET.etag } : {}),
      content: contentOf(op.response, op.response.schema),
    },
    ...(op.conditional ? { "304": CONDITIONAL_GET.notModified } : {}),
    ...errorResponses(op.errors),
    ...other,
  };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.security.map((scheme) => ({ [scheme]: [] })),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.requestBody
      ? {
          requestBody: {
            required: true,
            content: contentOf(op.requestBody, op.requestBody.schema),
          },
        }
      : {}),
    responses: { ...responses, ...clientErrorFallback(responses) },
  };
}

/**
 * Relative: the document is served by the service it describes, so `/` is that server whatever
 * host and port it runs on (http://localhost:3000 with the defaults).
 */
const SAME_SERVER = { url: "/", description: "The server this document was fetched from (http://localhost:3000 by default)." };

export function createOpenApiDocument(contributions: ApiContribution[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, { requestBody?: unknown }>> = {};
  const securitySchemes: Record<string, JsonSchema> = {};
  const notes: string[] = [];
  for (const contribution of contributions) {
    Object.assign(securitySchemes, contribution.securitySchemes);
    notes.push(...(contribution.notes ?? []));
    for (const op of contribution.operations) {
      paths[op.path] ??= {};
      paths[op.path]![op.method.toLowerCase()] = operationObject(op);
    }
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Plant Maintenance and Telemetry Query Service",
      version: "1.0.0",
      description: [
        "The service of `docs/api.md` as embedded in Plantdesk, with the gaps filled by `docs/api.md`.",
        "Every non-200 answer has the body `ErrorBody` (`{ status: \"ERROR\", code, message, data }`); unknown paths give 404 `NOT_FOUND`, a known path with another method 405 `METHOD_NOT_ALLOWED` with `Allow`; request bodies over 1 MiB give 413 `PAYLOAD_TOO_LARGE`.",
        ...notes,
      ].join("\n\n"),
      // Not open source (package.json is private); SPDX has no id for that, so a LicenseRef- one.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [serverUrl ? { url: serverUrl } : SAME_SERVER],
    paths,
    components: { schemas: components(paths, documentRegistry(contributions)), securitySchemes },
  };
}
