/**
 * The zlib and gzip functions (docs/api.md, "Compression"): text compressed into base64 and back. DuckDB runs
 * node:zlib, registered with the other JavaScript functions by the DuckDB engine
 * (lib/service/telemetry/duckdb/kql-functions.ts; lib/kql stays free of node imports). chdb has no
 * compression function for values (ClickHouse compresses only its storage), so the ClickHouse
 * engine refuses these functions by name.
 */
import { KqlError } from "../errors";
import { scalar, type FunctionEntry } from "./entry";

const refused = (name: string) => () => {
  throw new KqlError(`${name}() is not supported on the ClickHouse engine: it has no zlib or gzip compression of values`, 1, 1);
};

const entry = (name: string, udf: string, doc: string) => scalar(name, { args: "text: string", result: "string", sql: { duckdb: `${udf}($0)`, clickhouse: refused(name) }, doc });

export const COMPRESSION: readonly FunctionEntry[] = [
  entry("zlib_compress_to_base64_string", "kql_zlib_compress", "the text's UTF-8 bytes in a zlib stream (stored, as ADX's printed output), as base64"),
  entry("zlib_decompress_from_base64_string", "kql_zlib_decompress", "the text of a base64 zlib stream; '' when it is not one"),
  entry("gzip_compress_to_base64_string", "kql_gzip_compress", "the text's UTF-8 bytes in a gzip stream (stored, as ADX's printed output), as base64"),
  entry("gzip_decompress_from_base64_string", "kql_gzip_decompress", "the text of a base64 gzip stream; '' when it is not one"),
];
