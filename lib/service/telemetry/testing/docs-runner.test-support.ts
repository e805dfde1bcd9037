/**
 * TEST-ONLY: runs the examples of Microsoft's documentation (docs-examples.ts) through the
 * project's compile + execute path on both engines (an in-memory DuckDB and chdb, each with the
 * telemetry store's own row rendering, as the conformance harness does), and says for each one:
 * pass, wrong answer, refused (the engine's KqlError), error (anything else: what would be a 5xx)
 * or timeout. Used by `npm run conformance:docs` and the ratchet test (conformance/docs.test.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { bindParams } from "@/lib/service/telemetry/duckdb/store";
import { streamJsonRows } from "@/lib/service/telemetry/duckdb/json-rows";
import { querySettings, rowsStatement, rowsToJsonArray } from "@/lib/service/telemetry/clickhouse/sql";
import type { ClickHouseExecutor } from "@/lib/service/telemetry/clickhouse/executor";
import { clickhouseDialect, clickhouseParams } from "@/lib/kql/dialect/clickhouse";
import { compileKql } from "@/lib/kql/compile";
import { KqlError } from "@/lib/kql/errors";
import type { JsonValue } from "@/lib/kql/types";
import { createFixtureDatabase, unscopedSources } from "./duckdb.test-support";
import { createClickHouseFixture, unscopedClickHouseSources, type ClickHouseFixture } from "./clickhouse.test-support";
import { compareWithDocs, type DocsExample } from "@/lib/kql/testing/docs-examples";

type Engine = "duckdb" | "clickhouse";
export const ENGINES: Engine[] = ["duckdb", "clickhouse"];
type Status = "pass" | "wrong" | "refused" | "error" | "timeout";

export interface Outcome {
  id: string;
  engine: Engine;
  status: Status;
  /** Why it is not a pass: the difference, the refusal or the error. */
  message?: string;
}

/** The docs run at a fixed clock, so nothing depends on the hour (the examples kept never read it). */
const NOW = new Date("2026-01-02T12:00:00Z");
const LIMITS = { maxRows: 10_000, maxBytes: 16 * 1024 * 1024 };

export interface DocsEngines {
  run(engine: Engine, example: DocsExample): Promise<Outcome>;
  close(): Promise<void>;
}

interface DocsEngineOptions {
  timeoutMs?: number;
  database?: string;
  /** The ClickHouse engine's executor: chdb in process by default, or HTTP to clickhouse:dev or a server. */
  clickhouse?: ClickHouseExecutor;
}

export async function openDocsEngines(options: DocsEngineOptions = {}): Promise<DocsEngines> {
  const { timeoutMs = 10_000, database = `kql_docs_${process.pid}` } = options;
  const [duckdb, clickhouse]: [DuckDBConnection, ClickHouseFixture] = await Promise.all([createFixtureDatabase([]), createClickHouseFixture([], database, options.clickhouse)]);

  async function answer(engine: Engine, query: string): Promise<{ columns: string[]; rows: JsonValue[][] }> {
    if (engine === "duckdb") {
      const compiled = compileKql(query, { sources: unscopedSources(), now: NOW });
      const timer = setTimeout(() => duckdb.interrupt(), timeoutMs);
      try {
        const rendered = await streamJsonRows(duckdb, compiled, bindParams(compiled.params), LIMITS);
        return { columns: compiled.columns.map((c) => c.name), rows: JSON.parse(Buffer.concat(rendered.parts).toString("utf8")) as JsonValue[][] };
      } finally {
        clearTimeout(timer);
      }
    }
    const compiled = compileKql(query, { sources: unscopedClickHouseSources(clickhouse.database), now: NOW, dialect: clickhouseDialect });
    const statement = rowsStatement(compiled, LIMITS.maxRows, querySettings({ timeoutMs }));
    const output = await clickhouse.executor.query(statement, clickhouseParams(compiled.params), AbortSignal.timeout(timeoutMs + 2_000), LIMITS.maxBytes);
    return { columns: compiled.columns.map((c) => c.name), rows: JSON.parse(Buffer.from(rowsToJsonArray(output).json).toString("utf8")) as JsonValue[][] };
  }

  return {
    async run(engine, example) {
      const started = Date.now();
      try {
        const difference = compareWithDocs(example, await answer(engine, example.query));
        return difference === null ? { id: example.id, engine, status: "pass" } : { id: example.id, engine, status: "wrong", message: difference };
      } catch (error) {
        if (error instanceof KqlError) return { id: example.id, engine, status: "refused", message: error.detail };
        const message = (error as Error).message ?? String(error);
        const timedOut = Date.now() - started >= timeoutMs || /interrupt|TIMEOUT_EXCEEDED|timeout|aborted/i.test(message);
        return { id: example.id, engine, status: timedOut ? "timeout" : "error", message: message.split("\n")[0]!.slice(0, 300) };
      }
    },
    async close() {
      await clickhouse.close();
      duckdb.closeSync();
    },
  };
}

/** A refusal or error message with its specifics blanked, so like failures group together. */
export function causeOf(outcome: Outcome): string {
  const message = outcome.message ?? "";
  if (outcome.status === "wrong") return "wrong answer";
  const general = message.replace(/\s*\(line \d+, column \d+\)/g, "").replace(/\b\d+\b/g, "N");
  return `${outcome.status}: ${general.slice(0, 120)}`;
}
