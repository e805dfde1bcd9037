/**
 * The executor for ClickHouse servers and clusters: `@clickhouse/client` over HTTP(S). A query's
 * abort signal cancels its HTTP request, and the server stops the query
 * (`cancel_http_readonly_queries_on_client_close`).
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { createClient } from "@clickhouse/client";
import type { ClickHouseExecutor } from "./executor";

export interface ClickHouseConnection {
  url: string;
  username: string;
  password: string;
}

export function httpExecutor(connection: ClickHouseConnection): ClickHouseExecutor {
  const client = createClient({
    url: connection.url,
    username: connection.username,
    password: connection.password,
    clickhouse_settings: { cancel_http_readonly_queries_on_client_close: 1 },
  });
  return {
    async query(sql, params, signal) {
      // The statement names its own FORMAT; exec returns the raw output stream.
      const result = await client.exec({ query: sql, query_params: params, abort_signal: signal });
      const chunks: Buffer[] = [];
      for await (const chunk of result.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async command(sql, params = {}) {
      await client.command({ query: sql, query_params: params });
    },
    async insertParquet(file, structure, statement) {
      const literal = `'${structure.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
      const result = await client.exec({ query: `${statement(`input(${literal})`)} FORMAT Parquet`, values: fs.createReadStream(file) });
      result.stream.resume();
    },
    async insertJsonRows(table, rows, settings = {}) {
      // The rows are already JSONEachRow text: sent as the body of `INSERT … FORMAT JSONEachRow`.
      const result = await client.exec({ query: `INSERT INTO ${table} FORMAT JSONEachRow`, values: Readable.from([rows]), clickhouse_settings: settings });
      result.stream.resume();
    },
    close: () => client.close(),
  };
}
