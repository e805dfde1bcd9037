/**
 * `npm run clickhouse:dev`: ClickHouse's HTTP interface served from chdb (ClickHouse embedded, npm
 * `chdb`), for development and tests only. No ClickHouse server installs from this machine's
 * registries (Debian's is 18.16), so the HTTP executor (`@clickhouse/client`), the scale-out set-up
 * and the benchmarks talk to this instead; production uses a real server (README, "Scaling out").
 *
 * The subset `@clickhouse/client` uses: `POST /` (and `GET /?query=`) with the statement in the
 * body or in `query` (then the body is the data of an INSERT), `param_<name>` query parameters (in
 * the escaped form a server reads, see unescapeParameter)
 * (also as multipart/form-data parts), `database`, `default_format`, `query_id`, any other URL
 * parameter as a setting, gzip bodies both ways (`enable_http_compression=1`), `GET /ping`.
 * Errors answer ClickHouse's way: the status (400 for faults of the query, 404 unknown table or
 * database, 403 read-only, 500 otherwise), `X-ClickHouse-Exception-Code`, and the text
 * `Code: <n>. DB::Exception: <message> (<NAME>)`. INSERT data in any format (ingestion sends
 * RowBinary) is read from a temporary file of the body (`INSERT INTO t (…) FROM INFILE`): parsed
 * straight from the file, about half the CPU of the same rows inline in the statement's text, which
 * chdb parses whole first (docs/telemetry-ingest.md, "Where the readings go"); `input('<structure>')`
 * reads the body from such a file too.
 *
 * Not a server: one chdb session per process, so statements run one at a time (settings and the
 * database are applied to the session around each one); credentials are not checked (it listens
 * on 127.0.0.1 only); no sessions, no progress headers. CLICKHOUSE_DEV_PORT (default 8123; 0
 * picks a free one) and CLICKHOUSE_DEV_DIR (default data/clickhouse) configure it; it prints
 * `clickhouse:dev listening on http://127.0.0.1:<port>` once ready.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Session } from "chdb";
import { z } from "zod";

const env = z
  .object({
    CLICKHOUSE_DEV_PORT: z.coerce.number().int().min(0).max(65_535).default(8123),
    CLICKHOUSE_DEV_DIR: z.string().min(1).default("data/clickhouse"),
  })
  .parse({ CLICKHOUSE_DEV_PORT: process.env.CLICKHOUSE_DEV_PORT || undefined, CLICKHOUSE_DEV_DIR: process.env.CLICKHOUSE_DEV_DIR || undefined });

/** Largest request body taken (a seed's Parquet file of a day is well under this). */
const MAX_BODY_BYTES = 1024 * 1024 * 1024;
/** URL parameters that are about HTTP, not settings of the statement. */
const HTTP_ONLY = new Set(["enable_http_compression", "cancel_http_readonly_queries_on_client_close", "wait_end_of_query", "send_progress_in_http_headers", "http_headers_progress_interval_ms", "http_wait_end_of_query", "session_id", "session_timeout", "session_check", "role", "user", "password", "compress", "decompress"]);
const TEXT_FORMATS = /^(JSONEachRow|JSONCompactEachRow|JSONStringsEachRow|JSONCompactStringsEachRow|CSV|CSVWithNames|CSVWithNamesAndTypes|TSV|TabSeparated|TSVWithNames|TabSeparatedWithNames|TSVRaw|TabSeparatedRaw|Values)$/i;
/** An INSERT of the body's rows into a table: its target (table, columns) and SETTINGS before the final FORMAT. */
const IDENTIFIER = '(?:"(?:[^"]|"")*"|`[^`]*`|[A-Za-z_][A-Za-z0-9_]*)';
const PLAIN_INSERT = new RegExp(`^(\\s*INSERT\\s+INTO\\s+(?:TABLE\\s+)?${IDENTIFIER}(?:\\s*\\.\\s*${IDENTIFIER})?(?:\\s*\\([^()]*\\))?)(\\s+SETTINGS\\s[^()]*?)?\\s+FORMAT\\s+[A-Za-z0-9_]+\\s*$`, "i");
const READ_ONLY_STATEMENT = /^\s*(\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i;
const CONTENT_TYPES: Record<string, string> = { JSON: "application/json", JSONCompact: "application/json", JSONEachRow: "application/x-ndjson", CSV: "text/csv" };

fs.mkdirSync(env.CLICKHOUSE_DEV_DIR, { recursive: true });
const session = new Session(env.CLICKHOUSE_DEV_DIR);
const spool = fs.mkdtempSync(path.join(os.tmpdir(), "clickhouse-dev-"));
let queue: Promise<unknown> = Promise.resolve();
let spooled = 0;

/** A ClickHouse error: code, name and message as a server would send them. */
class ClickHouseError extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

function parseError(error: unknown): ClickHouseError {
  const text = error instanceof Error ? error.message : String(error);
  const match = /Code: (\d+)\. DB::Exception: ([\s\S]*?)(?: \(([A-Z0-9_]+)\))?(?: \(version [^)]*\))?\s*$/.exec(text);
  if (match) return new ClickHouseError(Number(match[1]), match[3] ?? "UNKNOWN_EXCEPTION", match[2]!);
  return new ClickHouseError(1002, "UNKNOWN_EXCEPTION", text);
}

function statusOf(code: number): number {
  if ([60, 81, 82].includes(code)) return 404; // unknown table / database, database exists
  if ([164].includes(code)) return 403; // read-only
  if ([27, 36, 38, 41, 42, 43, 44, 46, 47, 53, 62, 69, 70, 72, 115, 190, 321, 395, 456, 457].includes(code)) return 400;
  return 500;
}

const literal = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", "0": "\0", a: "\x07", v: "\v", e: "\x1b" };

/**
 * A query parameter's value as a ClickHouse server reads it: in the escaped (TabSeparated) form, so
 * `\\`, `\'`, `\t`, `\n`, `\xHH` … stand for one character, and a backslash before any other
 * character stands for that character. @clickhouse/client escapes every parameter this way
 * (`\` → `\\`, `'` → `\'`, tab → `\t`, newline → `\n`); chdb's queryBind takes values as they are, so
 * without this a string literal with a backslash, quote, tab or newline arrived doubled.
 */
function unescapeParameter(value: string): string | null {
  // `\N` alone is NULL (what the client sends for null); chdb takes JavaScript's null for it.
  if (value === "\\N") return null;
  return value.replace(/\\(x[0-9a-fA-F]{2}|[\s\S])/g, (_, escaped: string) =>
    escaped.length === 3 ? String.fromCharCode(parseInt(escaped.slice(1), 16)) : (ESCAPES[escaped] ?? escaped),
  );
}

/** The parts of a multipart/form-data body (the client sends large parameters this way). */
function multipartParts(body: Buffer, contentType: string): Map<string, string> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  const parts = new Map<string, string>();
  if (!boundary) return parts;
  for (const chunk of body.toString("utf8").split(`--${boundary}`)) {
    const split = chunk.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const name = /name="([^"]+)"/.exec(chunk.slice(0, split))?.[1];
    if (name) parts.set(name, chunk.slice(split + 4).replace(/\r\n$/, ""));
  }
  return parts;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ClickHouseError(307, "TOO_MANY_BYTES", "the request body is larger than clickhouse:dev takes (1 GB)");
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  return req.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(body) : body;
}

interface Statement {
  sql: string;
  params: Record<string, string | null>;
  settings: [string, string][];
  database: string | null;
  format: string;
  /** The output's format: the statement's FORMAT clause, else `default_format`, else TabSeparated. */
  outputFormat: string;
  /** A spooled body to remove afterwards. */
  cleanup?: string;
}

/** The statement of a request: its text (with INSERT data inline or spooled), parameters, settings. */
function statementOf(url: URL, body: Buffer, contentType: string): Statement {
  const params: Record<string, string | null> = {};
  const settings: [string, string][] = [];
  let database: string | null = null;
  let format = "TabSeparated";
  let readonly = false;
  for (const [key, value] of url.searchParams) {
    if (key.startsWith("param_")) params[key.slice(6)] = unescapeParameter(value);
    else if (key === "database") {
      if (!/^[A-Za-z0-9_]{1,128}$/.test(value)) throw new ClickHouseError(81, "UNKNOWN_DATABASE", `Database ${value.slice(0, 64)} does not exist`);
      database = value;
    }
    else if (key === "default_format") format = value;
    else if (key === "readonly") readonly = value !== "0";
    else if (key === "query" || key === "query_id" || HTTP_ONLY.has(key)) continue;
    else if (/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(key)) settings.push([key, value]);
    else throw new ClickHouseError(115, "UNKNOWN_SETTING", `Unknown setting '${key.slice(0, 64)}'`);
  }
  let sql = url.searchParams.get("query");
  if (contentType.startsWith("multipart/form-data")) {
    const parts = multipartParts(body, contentType);
    for (const [name, value] of parts) if (name.startsWith("param_")) params[name.slice(6)] = unescapeParameter(value);
    sql = parts.get("query") ?? sql;
    body = Buffer.alloc(0);
  }
  if (sql === null) {
    sql = body.toString("utf8");
    body = Buffer.alloc(0);
  }
  if (!sql.trim()) throw new ClickHouseError(62, "SYNTAX_ERROR", "Empty query");
  if (readonly && !READ_ONLY_STATEMENT.test(sql)) throw new ClickHouseError(164, "READONLY", "Cannot execute query in readonly mode");
  const outputFormat = /\bFORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i.exec(sql)?.[1] ?? format;
  if (body.length > 0) {
    const dataFormat = /\bFORMAT\s+([A-Za-z0-9_]+)\s*$/i.exec(sql)?.[1];
    if (!dataFormat) throw new ClickHouseError(62, "SYNTAX_ERROR", "An INSERT with data in the body needs FORMAT <format> at its end");
    const inputCall = /\binput\s*\(\s*('(?:[^'\\]|\\.)*')\s*\)/i;
    if (inputCall.test(sql)) {
      // `… FROM input('<structure>') FORMAT <f>`: the same rows read from a file of the body.
      const file = path.join(spool, `input-${++spooled}`);
      fs.writeFileSync(file, body);
      sql = sql.replace(/\s*\bFORMAT\s+[A-Za-z0-9_]+\s*$/i, "").replace(inputCall, (_, structure: string) => `file(${literal(file)}, ${literal(dataFormat)}, ${structure})`);
      return { sql, params, settings, database, format, outputFormat, cleanup: file };
    }
    const insert = PLAIN_INSERT.exec(sql);
    if (insert) {
      // `INSERT INTO t [(…)] [SETTINGS …] FORMAT <f>`: the same rows read from a file of the body.
      const file = path.join(spool, `insert-${++spooled}`);
      fs.writeFileSync(file, body);
      sql = `${insert[1]} FROM INFILE ${literal(file)}${insert[2] ?? ""} FORMAT ${dataFormat}`;
      return { sql, params, settings, database, format, outputFormat, cleanup: file };
    }
    if (!TEXT_FORMATS.test(dataFormat)) throw new ClickHouseError(73, "UNKNOWN_FORMAT", `clickhouse:dev takes INSERT INTO <table> [(columns)] FORMAT <format> with data in any format, else text formats only (not ${dataFormat}); use input('<structure>') for others`);
    sql = `${sql}\n${body.toString("utf8")}`;
  }
  return { sql, params, settings, database, format, outputFormat };
}

/** Runs one statement with its settings and database applied to the session, then restored. */
async function run(statement: Statement, signal: AbortSignal): Promise<Uint8Array> {
  const job = queue.then(async () => {
    const applied: string[] = [];
    try {
      for (const [key, value] of statement.settings) {
        await session.queryAsync(`SET ${key} = ${literal(value)}`);
        applied.push(key);
      }
      if (statement.database) await session.queryAsync(`USE ${statement.database}`);
      const result = await session.queryBindAsync(statement.sql, statement.params, { format: statement.format, signal });
      return result.bytes();
    } finally {
      for (const key of applied) await session.queryAsync(`SET ${key} = DEFAULT`).catch(() => undefined);
      if (statement.database) await session.queryAsync("USE default").catch(() => undefined);
      if (statement.cleanup) fs.rmSync(statement.cleanup, { force: true });
    }
  });
  queue = job.catch(() => undefined);
  return job;
}

function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: Record<string, string>, body: Uint8Array | string): void {
  let payload = typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.searchParams.get("enable_http_compression") === "1" && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    payload = zlib.gzipSync(payload);
    headers["Content-Encoding"] = "gzip";
  }
  res.writeHead(status, { ...headers, "Content-Length": String(payload.length) });
  res.end(payload);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const queryId = url.searchParams.get("query_id") ?? crypto.randomUUID();
  const common = { "X-ClickHouse-Query-Id": queryId, "X-ClickHouse-Timezone": "UTC", "X-ClickHouse-Server-Display-Name": "clickhouse-dev" };
  if (url.pathname === "/ping" || (url.pathname === "/" && req.method === "GET" && !url.searchParams.has("query"))) {
    send(req, res, 200, { "Content-Type": "text/plain; charset=UTF-8" }, "Ok.\n");
    return;
  }
  if (url.pathname !== "/" || (req.method !== "POST" && req.method !== "GET")) {
    send(req, res, 404, { ...common, "X-ClickHouse-Exception-Code": "1002", "Content-Type": "text/plain; charset=UTF-8" }, "Code: 1002. DB::Exception: clickhouse:dev serves / and /ping only. (UNKNOWN_EXCEPTION)\n");
    return;
  }
  const controller = new AbortController();
  // The client went away before the answer: stop waiting for it (cancel_http_readonly_queries_on_client_close).
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    const statement = statementOf(url, await readBody(req), String(req.headers["content-type"] ?? ""));
    const started = Date.now();
    const output = await run(statement, controller.signal);
    const formatMatch = statement.outputFormat;
    send(req, res, 200, {
      ...common,
      "X-ClickHouse-Format": formatMatch,
      "X-ClickHouse-Summary": JSON.stringify({ read_rows: "0", read_bytes: "0", written_rows: "0", written_bytes: "0", total_rows_to_read: "0", result_rows: "0", result_bytes: String(output.byteLength), elapsed_ns: String((Date.now() - started) * 1e6) }),
      "Content-Type": `${CONTENT_TYPES[formatMatch] ?? "text/plain"}; charset=UTF-8`,
    }, output);
  } catch (caught) {
    const error = caught instanceof ClickHouseError ? caught : parseError(caught);
    if (res.headersSent || res.destroyed) return;
    send(req, res, statusOf(error.code), { ...common, "X-ClickHouse-Exception-Code": String(error.code), "Content-Type": "text/plain; charset=UTF-8" }, `Code: ${error.code}. DB::Exception: ${error.message} (${error.type}) (version clickhouse-dev (chdb))\n`);
  }
});

server.listen(env.CLICKHOUSE_DEV_PORT, "127.0.0.1", () => {
  const { port } = server.address() as import("node:net").AddressInfo;
  console.log(`clickhouse:dev listening on http://127.0.0.1:${port} (chdb, data in ${path.resolve(env.CLICKHOUSE_DEV_DIR)}); a development tool, not a ClickHouse server`);
});

function shutdown(): void {
  server.close();
  server.closeAllConnections();
  void queue.finally(() => {
    session.close();
    fs.rmSync(spool, { recursive: true, force: true });
    process.exit(0);
  });
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
