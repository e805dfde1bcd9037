import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../contract/errors";
import { evaluationError } from "./errors";

async function duckdbFailure(sql: string): Promise<unknown> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(sql, { k1: "not a number" });
    return null;
  } catch (error) {
    return error;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("DuckDB evaluation errors", () => {
  it("turns a conversion error into INVALID_QUERY without the generated SQL's parameter names", async () => {
    const failure = evaluationError(await duckdbFailure("SELECT CAST($k1 AS INTEGER)"));
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure?.code).toBe("INVALID_QUERY");
    expect(failure?.message).toContain("while evaluating");
    expect(failure?.message).not.toMatch(/\$k\d/);
    expect(failure?.data).toEqual([{ line: 1, column: 1, message: expect.any(String) }]);
  });

  it("turns DuckDB's expression depth limit into INVALID_QUERY", async () => {
    const deep = `SELECT ${"abs(".repeat(1100)}1${")".repeat(1100)}`;
    const failure = evaluationError(await duckdbFailure(deep));
    expect(failure?.code).toBe("INVALID_QUERY");
    expect(failure?.message).toMatch(/nested too deeply/);
  });

  it("leaves other failures alone (they stay server errors)", async () => {
    expect(evaluationError(await duckdbFailure("SELECT * FROM no_such_table"))).toBeNull();
    expect(evaluationError(new Error("socket hang up"))).toBeNull();
  });
});
