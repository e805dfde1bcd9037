/**
 * The KQL functions DuckDB computes in JavaScript (lib/kql/functions/udfs.ts), registered on a
 * database: once per DuckDB instance, before its first query (they live in its catalogue, every
 * connection sees them). The compression functions use node:zlib, so they are listed here rather
 * than in lib/kql (which runs in the browser too; the entries are lib/kql/functions/compression.ts).
 */
import zlib from "node:zlib";
import { BIGINT, BOOLEAN, DOUBLE, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from "@duckdb/node-api";
import { DUCKDB_UDFS } from "@/lib/kql/functions/udfs";

const TYPES = { VARCHAR, BIGINT, DOUBLE, BOOLEAN } as const;

/** Text decompressed from base64; '' when it is not a stream of that kind (ADX's answer). */
function decompressed(text: string, inflate: (bytes: Buffer) => Buffer): string {
  try {
    return inflate(Buffer.from(text, "base64")).toString("utf8");
  } catch {
    return "";
  }
}

/**
 * Compressed as ADX prints it: one stored deflate block (level 0: the pages' outputs are stored
 * blocks); gzip's header with no time, no extra flags and the unknown operating system (0xff).
 */
function gzipped(text: string): string {
  const bytes = zlib.gzipSync(Buffer.from(text, "utf8"), { level: 0 });
  bytes[8] = 0;
  bytes[9] = 0xff;
  return bytes.toString("base64");
}

const COMPRESSION = [
  { name: "kql_zlib_compress", params: ["VARCHAR"], returns: "VARCHAR", fn: (text: string) => zlib.deflateSync(Buffer.from(text, "utf8"), { level: 0 }).toString("base64") },
  { name: "kql_zlib_decompress", params: ["VARCHAR"], returns: "VARCHAR", fn: (text: string) => decompressed(text, (b) => zlib.inflateSync(b)) },
  { name: "kql_gzip_compress", params: ["VARCHAR"], returns: "VARCHAR", fn: gzipped },
  { name: "kql_gzip_decompress", params: ["VARCHAR"], returns: "VARCHAR", fn: (text: string) => decompressed(text, (b) => zlib.gunzipSync(b)) },
] as const;

export function registerKqlFunctions(connection: DuckDBConnection): void {
  for (const udf of [...DUCKDB_UDFS, ...COMPRESSION]) {
    const fn = udf.fn as (...args: unknown[]) => unknown;
    connection.registerScalarFunction(
      DuckDBScalarFunction.create({
        name: udf.name,
        returnType: TYPES[udf.returns],
        parameterTypes: udf.params.map((p) => TYPES[p]),
        mainFunction: (_info, input, output) => {
          const columns = udf.params.map((_, i) => input.getColumnVector(i));
          for (let row = 0; row < input.rowCount; row++) output.setItem(row, fn(...columns.map((c) => c.getItem(row))) as never);
          output.flush();
        },
      }),
    );
  }
}
