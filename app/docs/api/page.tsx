/**
 * The API reference, rendered from the same OpenAPI document the service serves at /openapi.json
 * (which is generated from the zod schemas), so page, document and code agree. Public: no session.
 */
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ERROR_STATUS } from "@/lib/contract/errors";
import { server } from "@/app/page-server";

export const metadata: Metadata = { title: "API reference" };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- an OpenAPI document

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-accent-soft text-accent",
  post: "bg-success-soft text-success",
  put: "bg-warning-soft text-warning",
  delete: "bg-danger-soft text-danger",
  patch: "bg-warning-soft text-warning",
};

const ERROR_MEANINGS: Record<string, string> = {
  INVALID_INPUT: "A parameter, path id or body is missing or malformed; `data` lists `{ field, problem }`.",
  INVALID_QUERY: "The telemetry query does not parse or names an unknown table, column or function.",
  QUERY_LIMIT_EXCEEDED: "The telemetry result is over 500,000 rows or 64 MB.",
  QUERY_TIMEOUT: "The telemetry query ran longer than 60 s.",
  UNAUTHORIZED: "Missing, unknown, revoked or expired token; sent with `WWW-Authenticate: Bearer`.",
  FORBIDDEN: "The token is valid but not for this plant or action.",
  PLANT_NOT_FOUND: "No plant with this id.",
  PART_NOT_FOUND: "No part with this id in the plant.",
  TASK_NOT_FOUND: "No task with this id in the plant.",
  NOT_FOUND: "No resource at this path.",
  METHOD_NOT_ALLOWED: "The path exists but not with this method; `Allow` lists the methods.",
  ASSET_NOT_FOUND: "The task's asset tag number is not registered in the plant.",
  UNIT_MISMATCH: "The stock level's unit is not the part's unit.",
  INVALID_TRANSITION: "The task's status cannot move to the requested one.",
  PAYLOAD_TOO_LARGE: "The request body is over 1 MiB.",
  UNSUPPORTED_MEDIA_TYPE: "The body is not sent as the required Content-Type.",
  RATE_LIMITED: "Over the per-minute budget of the token or client; `Retry-After` says when to retry.",
  INTERNAL_ERROR: "Unexpected server-side error (no details are disclosed).",
};

/** `code` and **bold** in the document's descriptions. */
function Text({ children }: { children?: string }) {
  if (!children) return null;
  const parts = children.split(/(`[^`]+`|\*\*[^*]+\*\*)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("`") ? (
          <code key={i} className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.85em] wrap-anywhere">
            {part.slice(1, -1)}
          </code>
        ) : part.startsWith("**") ? (
          <strong key={i}>{part.slice(2, -2)}</strong>
        ) : (
          part
        ),
      )}
    </>
  );
}

const refName = (ref: string) => ref.split("/").at(-1)!;

/** A compact type expression for a JSON Schema, with links to named schemas. */
function TypeOf({ schema }: { schema: Json | undefined }): ReactNode {
  if (!schema) return "any";
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#schema-${name}`} className="text-accent underline underline-offset-2">
        {name}
      </a>
    );
  }
  if (schema.anyOf) {
    return (schema.anyOf as Json[]).map((s, i) => (
      <span key={i}>
        {i > 0 && " | "}
        <TypeOf schema={s} />
      </span>
    ));
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (types.includes("array")) {
    return (
      <>
        array of <TypeOf schema={schema.items} />
      </>
    );
  }
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types.join(" | ");
}

function constraints(schema: Json | undefined): string {
  if (!schema) return "";
  const notes: string[] = [];
  if (schema.format) notes.push(`format ${schema.format}`);
  if (schema.pattern && !schema.format) notes.push(`pattern ${schema.pattern}`);
  if (schema.minimum !== undefined && schema.minimum > -9e15) notes.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < 9e15) notes.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) notes.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) notes.push(`max length ${schema.maxLength}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join(", ");
}

function Table({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  return (
    <div className="overflow-x-auto rounded-md border border-line">
      <table className="w-full text-left text-sm">
        <thead className="bg-surface-2 text-fg-muted">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className="border-t border-line align-top">
              {row.map((cell, j) => (
                <td key={j} className="px-3 py-2">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({ path, method, op }: { path: string; method: string; op: Json }) {
  const parameters = (op.parameters ?? []) as Json[];
  const body = op.requestBody?.content as Json | undefined;
  return (
    <section id={op.operationId} className="scroll-mt-4 space-y-3 rounded-lg border border-line bg-surface p-4">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 font-semibold uppercase ${METHOD_COLOURS[method] ?? ""}`}>{method}</span>
        <span className="break-all">{path}</span>
      </h3>
      <p className="font-medium">{op.summary}</p>
      {op.description && (
        <p className="text-sm text-fg-muted">
          <Text>{op.description}</Text>
        </p>
      )}
      <p className="text-sm text-fg-muted">
        Authentication: {(op.security as Json[]).length === 0 ? "none" : (op.security as Json[]).map((s) => Object.keys(s)[0]).join(", ")}
      </p>
      {parameters.length > 0 && (
        <Table
          head={["Parameter", "In", "Type", "Required", "Notes"]}
          rows={parameters.map((p) => [
            <code key="n">{p.name}</code>,
            p.in,
            <TypeOf key="t" schema={p.schema} />,
            p.required ? "yes" : "no",
            <span key="d">
              <Text>{[p.description, constraints(p.schema)].filter(Boolean).join(" — ")}</Text>
            </span>,
          ])}
        />
      )}
      {body && (
        <p className="text-sm">
          Request body ({Object.keys(body).join(", ")}): <TypeOf schema={Object.values(body)[0]?.schema} />
        </p>
      )}
      <Table
        head={["Status", "Meaning", "Body"]}
        rows={Object.entries(op.responses as Json).map(([status, response]) => [
          status,
          <span key="d">
            <Text>{response.description}</Text>
          </span>,
          <TypeOf key="t" schema={response.content ? (Object.values(response.content)[0] as Json).schema : undefined} />,
        ])}
      />
    </section>
  );
}

function Schema({ name, schema }: { name: string; schema: Json }) {
  const properties = Object.entries((schema.properties ?? {}) as Json);
  const required = new Set((schema.required ?? []) as string[]);
  return (
    <section id={`schema-${name}`} className="scroll-mt-4 space-y-2">
      <h3 className="font-mono font-semibold break-all">{name}</h3>
      {schema.description && (
        <p className="text-sm text-fg-muted">
          <Text>{schema.description}</Text>
        </p>
      )}
      {properties.length > 0 ? (
        <Table
          head={["Field", "Type", "Required", "Notes"]}
          rows={properties.map(([field, property]) => [
            <code key="f">{field}</code>,
            <TypeOf key="t" schema={property} />,
            required.has(field) ? "yes" : "no",
            <span key="n">
              <Text>{[property.description, constraints(property)].filter(Boolean).join(" — ")}</Text>
            </span>,
          ])}
        />
      ) : (
        <p className="text-sm">
          <TypeOf schema={schema} /> {constraints(schema) && <span className="text-fg-muted">({constraints(schema)})</span>}
        </p>
      )}
    </section>
  );
}

// Rendered per request: the document comes from the running server (app/page-server.ts), which a build has not.
export const dynamic = "force-dynamic";

export default function ApiReferencePage() {
  const doc = server().serviceOpenApiDocument() as Json;
  const operations = Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );
  const tags = [...new Set(operations.map(({ op }) => op.tags[0] as string))];
  const [intro, ...notes] = (doc.info.description as string).split("\n\n");
  return (
    // min-w-0 and wrap-anywhere: long paths and codes break inside the page at 390 px instead of widening it.
    <main className="mx-auto max-w-5xl min-w-0 space-y-10 px-4 py-8 wrap-anywhere">
      <header className="space-y-3">
        <p className="text-sm text-fg-muted">Plantdesk · API reference · version {doc.info.version}</p>
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        <p>
          <Text>{intro}</Text>
        </p>
        <p className="text-sm">
          Machine-readable:{" "}
          <a href="/openapi.json" className="text-accent underline">
            /openapi.json
          </a>{" "}
          (OpenAPI {doc.openapi}, generated from the same zod schemas the service validates with).
        </p>
      </header>

      <nav aria-label="Endpoints" className="space-y-2">
        <h2 className="text-lg font-semibold">Endpoints</h2>
        {tags.map((tag) => (
          <div key={tag}>
            <h3 className="text-sm font-medium text-fg-muted">{tag}</h3>
            <ul className="mt-1 space-y-0.5 font-mono text-sm">
              {operations
                .filter(({ op }) => op.tags[0] === tag)
                .map(({ path, method, op }) => (
                  <li key={op.operationId}>
                    <a href={`#${op.operationId}`} className="flex gap-2 hover:underline">
                      <span className="w-16 shrink-0 uppercase">{method}</span>
                      <span className="min-w-0 break-all">{path}</span>
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Rules and choices the specification left open</h2>
        <ul className="list-disc space-y-2 pl-5 text-sm">
          {notes.map((note, i) => (
            <li key={i}>
              <Text>{note}</Text>
            </li>
          ))}
        </ul>
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Error codes</h2>
        <p className="text-sm text-fg-muted">
          Every non-200 answer has the body <code>{`{ status: "ERROR", code, message, data }`}</code>.
        </p>
        <Table
          head={["Code", "Status", "Meaning"]}
          rows={Object.entries(ERROR_STATUS).map(([code, status]) => [
            <code key="c">{code}</code>,
            status,
            <span key="m">
              <Text>{ERROR_MEANINGS[code] ?? ""}</Text>
            </span>,
          ])}
        />
      </section>

      {tags.map((tag) => (
        <section key={tag} className="space-y-4">
          <h2 className="text-lg font-semibold">{tag}</h2>
          {operations
            .filter(({ op }) => op.tags[0] === tag)
            .map(({ path, method, op }) => (
              <Operation key={op.operationId} path={path} method={method} op={op} />
            ))}
        </section>
      ))}

      <section className="space-y-6">
        <h2 className="text-lg font-semibold">Schemas</h2>
        {Object.entries(doc.components.schemas as Json).map(([name, schema]) => (
          <Schema key={name} name={name} schema={schema as Json} />
        ))}
      </section>
    </main>
  );
}
