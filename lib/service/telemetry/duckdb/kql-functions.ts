/**
 * The KQL functions DuckDB computes in JavaScript (lib/kql/functions/udfs.ts), registered on a
 * database: once per DuckDB instance, before its first query (they live in its catalogue, every
 * connection sees them).
 */
import { BIGINT, BOOLEAN, DOUBLE, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from "@duckdb/node-api";
import { DUCKDB_UDFS } from "@/lib/kql/functions/udfs";

const TYPES = { VARCHAR, BIGINT, DOUBLE, BOOLEAN } as const;

export function registerKqlFunctions(connection: DuckDBConnection): void {
  for (const udf of DUCKDB_UDFS) {
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
