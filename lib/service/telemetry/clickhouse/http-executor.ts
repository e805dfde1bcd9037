/**
 * The executor for ClickHouse servers and clusters: `@clickhouse/client` over HTTP(S). A query's
 * abort signal cancels its HTTP request, and the server stops the query
 * (`cancel_http_readonly_queries_on_client_close`).
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { createClient } from "@clickhouse/client";
import { OutputTooLarge, type ClickHouseExecutor } from "./executor";

interface ClickHouseConnection {
  url: string;
  username: string;
  password: string;
}

/** Reads an answer to its end, so the connection goes back to the pool whole. */
function drained(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on("end", resolve).on("error", reject);
    stream.resume();
  });
}

export function httpExecutor(connection: ClickHouseConnection): ClickHouseExecutor {
  const client = createClient({
    url: connection.url,
    username: connection.username,
    password: connection.password,
    // Progress headers keep a long statement's connection busy, so no proxy in between drops it as idle.
    clickhouse_settings: { cancel_http_readonly_queries_on_client_close: 1, send_progress_in_http_headers: 1, http_headers_progress_interval_ms: "10000" },
    // A seed's bulk load may take minutes; queries are bounded by their own abort signal (their time limit).
    request_timeout: 600_000,
  });
  return {
    async query(sql, params, signal, maxBytes = Infinity) {
      // The statement names its own FORMAT; exec returns the raw output stream. Our own controller
      // too: reading stops at maxBytes, and aborting the request makes the server cancel the query.
      const stop = new AbortController();
      const abortSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      const result = await client.exec({ query: sql, query_params: params, abort_signal: abortSignal });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of result.stream) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          stop.abort();
          result.stream.destroy();
          throw new OutputTooLarge(maxBytes);
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    async command(sql, params = {}) {
      await client.command({ query: sql, query_params: params });
    },
    async insertParquet(file, structure, statement) {
      const literal = `'${structure.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
      const result = await client.exec({ query: `${statement(`input(${literal})`)} FORMAT Parquet`, values: fs.createReadStream(file) });
      await drained(result.stream);
    },
    async insertJsonRows(table, rows, settings = {}) {
      // The rows are already JSONEachRow text: sent as the body of `INSERT … FORMAT JSONEachRow`.
      const result = await client.exec({ query: `INSERT INTO ${table} FORMAT JSONEachRow`, values: Readable.from([rows]), clickhouse_settings: settings });
      await drained(result.stream);
    },
    async insertRowBinary(table, columns, rows, settings = {}) {
      const result = await client.exec({
        query: `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) FORMAT RowBinary`,
        values: Readable.from([Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength)]),
        clickhouse_settings: settings,
      });
      await drained(result.stream);
    },
    close: () => client.close(),
  };
}
