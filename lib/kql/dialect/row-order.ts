/**
 * SQL of the row-order functions (lib/kql/rows.ts): window functions over the serialized order.
 * `a` are the rendered operands of a `row:<fn>:<flags>` node: the function's own (prev/next:
 * value, offset, default; row_number: start, restart; row_cumsum: term, restart), then the order keys.
 */
export function rowOrderSql(engine: "duckdb" | "clickhouse", op: string, a: string[], cast: (sql: string) => string): string {
  const [, fn, flags = "", steps = "1", fallback = "d"] = op.split(":") as [string, string, string?, string?, string?];
  const own = fn === "prev" || fn === "next" ? 3 : 2;
  const keys = a.slice(own).map((k, i) => `${k} ${flags[2 * i] === "d" ? "DESC" : "ASC"} NULLS ${flags[2 * i + 1] === "f" ? "FIRST" : "LAST"}`);
  const over = (frame: string) => `OVER (${[keys.length ? `ORDER BY ${keys.join(", ")}` : "", frame].filter(Boolean).join(" ")})`;
  const [x, , z] = a as [string, string, string];
  switch (fn) {
    case "prev":
    case "next":
      if (engine === "duckdb") return `${fn === "prev" ? "lag" : "lead"}(${x}, ${steps}${fallback === "n" ? "" : `, ${z}`}) ${over("")}`;
      // ClickHouse's lag/lead read within the frame: the whole partition. toNullable so that the default may be NULL;
      // a null default is left to the type's own (NULL), as a NULL literal of another type (a table's
      // DateTime64(3) against the engine's DateTime64(6)) is refused.
      return `${fn === "prev" ? "lagInFrame" : "leadInFrame"}(toNullable(${x}), ${steps}${fallback === "n" ? "" : `, ${z}`}) ${over("ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING")}`;
    case "row_number":
      return `(${cast(`row_number() ${over("")}`)} + ${x} - 1)`;
    default:
      return cast(`sum(${x}) ${over("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")}`);
  }
}

/** An ordered aggregate's parts (lib/kql/rows.ts inSerialOrder): its own op and operands, and its order keys with their directions. */
export function orderedParts<T>(op: string, operands: T[]): { op: string; own: T[]; keys: { key: T; desc: boolean; nullsFirst: boolean }[] } {
  const [base, flags = ""] = op.split("@") as [string, string?];
  const count = flags.length / 2;
  const keys = operands.slice(operands.length - count).map((key, i) => ({ key, desc: flags[2 * i] === "d", nullsFirst: flags[2 * i + 1] === "f" }));
  return { op: base, own: operands.slice(0, operands.length - count), keys };
}

