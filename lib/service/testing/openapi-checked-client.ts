/**
 * Test support: the real HTTP server around a service runtime (the same node adapter as
 * scripts/serve.ts) and a client that validates EVERY response against the served /openapi.json
 * with a standard validator (ajv, JSON Schema 2020-12), so the document cannot drift from the code.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll } from "vitest";
import { parseConfig, type AppConfig } from "@/lib/config";
import { nodeListener } from "../../platform/http/node-adapter";
import { createServiceRuntime, type ServiceRuntime } from "../runtime";
import { freePort } from "../../testing/free-port";

/**
 * Configuration from the given variables only (not the developer's environment). One day of demo
 * telemetry unless a test asks for more: the 30-day default takes a while to generate.
 */
export function testConfig(variables: Record<string, string>): AppConfig {
  return parseConfig({ DEMO_TELEMETRY_DAYS: "1", ...variables } as unknown as NodeJS.ProcessEnv);
}


export async function startHttpServer(runtime: ServiceRuntime, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(nodeListener(runtime.handle, "http://localhost"));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read it freely
}

interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

type OpenApiDoc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

export async function createCheckedClient(baseUrl: string) {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApiDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi.json");
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}/?$`),
  }));
  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  function validatorFor(ref: string) {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    return validate;
  }

  /** Throws when the response is not what the document says this path, method and status return. */
  function check(method: string, path: string, status: number, body: unknown): void {
    const match = templates.find(({ regex }) => regex.test(path));
    const operation = match && doc.paths[match.template]![method.toLowerCase()];
    let ref: string;
    if (operation) {
      const response = operation.responses[String(status)];
      if (!response) throw new Error(`${method} ${path}: status ${status} is not documented for ${match.template}`);
      if (!response.content) {
        // A documented answer without content (304): it must have none.
        if (body !== null) throw new Error(`${method} ${path} → ${status}: documented without content, yet a body came`);
        return;
      }
      ref = `openapi.json#/${pointer("paths", match.template, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}`;
    } else {
      // Unknown path or method: the router's 404/405, which must still be the documented error body.
      if (status !== 404 && status !== 405) throw new Error(`${method} ${path}: undocumented operation answered ${status}`);
      ref = "openapi.json#/components/schemas/ErrorBody";
    }
    const validate = validatorFor(ref);
    if (!validate(body)) {
      throw new Error(`${method} ${path} → ${status}: response does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
    }
  }

  let checked = 0;
  return {
    doc,
    get checkedCount() {
      return checked;
    },
    async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | Uint8Array | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
      const text = await response.text();
      const json = text ? JSON.parse(text) : null;
      check(method, new URL(path, baseUrl).pathname, response.status, json);
      checked++;
      return { status: response.status, headers: response.headers, body: json };
    },
  };
}

export interface CheckedService {
  dataDir: string;
  runtime: ServiceRuntime;
  server: { url: string; close(): Promise<void> };
  client: Awaited<ReturnType<typeof createCheckedClient>>;
  /** Stops the server and the runtime and removes the data directory. */
  close(): Promise<void>;
}

/**
 * A service runtime on a temporary DATA_DIR (`pd-<name>-…`), behind a real HTTP server, with the
 * checked client. `variables` is its configuration beyond DATA_DIR; as a function it is given the
 * server's address first (for configuration that names it, such as OAUTH_ISSUER).
 */
export async function startCheckedService(name: string, variables: Record<string, string> | ((url: string) => Record<string, string>) = {}): Promise<CheckedService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pd-${name}-`));
  const port = typeof variables === "function" ? await freePort() : 0;
  const own = typeof variables === "function" ? variables(`http://127.0.0.1:${port}`) : variables;
  try {
    const runtime = await createServiceRuntime(testConfig({ DATA_DIR: dataDir, ...own }));
    const server = await startHttpServer(runtime, port);
    const client = await createCheckedClient(server.url);
    return {
      dataDir,
      runtime,
      server,
      client,
      async close() {
        await server.close();
        await runtime.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A checked service for the enclosing suite: started before its tests, closed after them. The
 * getter is for use inside the tests and hooks (the service does not exist before they run).
 */
export function suiteService(name: string, variables: Parameters<typeof startCheckedService>[1] = {}): () => CheckedService {
  let service: CheckedService | undefined;
  beforeAll(async () => {
    service = await startCheckedService(name, variables);
  }, 180_000);
  afterAll(() => service?.close());
  return () => service!;
}
