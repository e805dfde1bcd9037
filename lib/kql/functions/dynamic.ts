/** KQL's dynamic functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";
import { runtimeTooLarge, VALUE_LIMITS } from "../budget";
import type { KqlType } from "../types";

/**
 * An array function over the elements' JSON: DuckDB's JSON[] lists, ClickHouse's raw element texts;
 * null when an argument is not an array (ADX).
 */
const duckdbArrays = (args: string[], body: (lists: string[]) => string) =>
  `CASE WHEN ${args.map((a) => `json_type(${a}) = 'ARRAY'`).join(" AND ")} THEN to_json(${body(args.map((a) => `CAST(${a} AS JSON[])`))}) END`;
const clickhouseArrays = (args: string[], body: (lists: string[]) => string) =>
  `if(${args.map((a) => `JSONType(${a}) = 'Array'`).join(" AND ")}, concat('[', arrayStringConcat(${body(args.map((a) => `JSONExtractArrayRaw(ifNull(${a}, 'null'))`))}, ','), ']'), NULL)`;

export const DYNAMIC: readonly FunctionEntry[] = [
  documented("scalar", "parse_json", "parse_json(s): dynamic — text parsed as JSON"),
  documented("scalar", "todynamic", "todynamic(s): dynamic — text parsed as JSON"),
  documented("scalar", "toobject", "toobject(s): dynamic — text parsed as a JSON object"),
  documented("scalar", "bag_keys", "bag_keys(Bag): dynamic array — the keys of a property bag"),
  documented("scalar", "array_length", "array_length(Array): long — the number of elements (null if not an array)"),
  documented("scalar", "repeat", "repeat(Value, Count): dynamic array — an array of Count copies of Value"),
  documented("scalar", "array_sum", "array_sum(Array): real — the sum of an array's numbers"),
  documented("scalar", "pack_array", "pack_array(a, b, …): dynamic — the values as an array"),
  documented("scalar", "bag_pack", "bag_pack(Key, Value, …): dynamic — a property bag of keys and values"),
  documented("scalar", "pack", "pack(Key, Value, …): dynamic — a property bag of keys and values"),
  scalar("array_reverse", {
    args: "array: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args }) => duckdbArrays(args, ([l]) => `list_reverse(${l})`), clickhouse: ({ args }) => clickhouseArrays(args, ([l]) => `arrayReverse(${l})`) },
    doc: "the array's elements in reverse order",
  }),
  scalar("array_concat", {
    args: "array...: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args }) => duckdbArrays(args, (ls) => `flatten([${ls.join(", ")}])`), clickhouse: ({ args }) => clickhouseArrays(args, (ls) => `arrayConcat(${ls.join(", ")})`) },
    doc: "the arrays' elements in one array",
  }),
  scalar("array_slice", {
    args: "array: dynamic, start: long, end: long",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args: [array, start, end] }) => duckdbArrays([array!], ([l]) => slice("duckdb", l!, start!, end!)),
      clickhouse: ({ args: [array, start, end] }) => clickhouseArrays([array!], ([l]) => slice("clickhouse", l!, start!, end!)),
    },
    doc: "the elements from index start to end, both included (negative indexes count from the end)",
  }),
  ...(["left", "right"] as const).map((side) =>
    scalar(`array_rotate_${side}`, {
      args: "array: dynamic, rotate_count: long",
      result: "dynamic",
      nulls: "may",
      sql: {
        duckdb: ({ args: [array, count] }) => duckdbArrays([array!], ([l]) => rotate("duckdb", l!, side === "left" ? count! : `-(${count})`)),
        clickhouse: ({ args: [array, count] }) => clickhouseArrays([array!], ([l]) => rotate("clickhouse", l!, side === "left" ? count! : `-(${count})`)),
      },
      doc: `the array's elements rotated ${side} by rotate_count places (a negative count rotates the other way)`,
    }),
  ),
  ...(["left", "right"] as const).map((side) =>
    scalar(`array_shift_${side}`, {
      args: ["array: dynamic, shift_count: long", "array: dynamic, shift_count: long, fill_value: any"],
      result: "dynamic",
      nulls: "may",
      sql: {
        duckdb: ({ args: [array, count, fill] }) =>
          duckdbArrays([array!], ([l]) => shift("duckdb", l!, side === "left" ? count! : `-(${count})`, fill === undefined ? "'null'::JSON" : `coalesce(to_json(${fill}), 'null'::JSON)`)),
        clickhouse: ({ args: [array, count, fill], types }) =>
          clickhouseArrays([array!], ([l]) => shift("clickhouse", l!, side === "left" ? count! : `-(${count})`, fill === undefined ? "'null'" : clickhouseJson(fill, types[2]!))),
      },
      doc: `the array's elements shifted ${side} by shift_count places, the emptied places filled with fill_value (null by default; a negative count shifts the other way)`,
    }),
  ),
  scalar("set_has_element", {
    args: "set: dynamic, value: any",
    result: "bool",
    nulls: "may",
    sql: {
      duckdb: ({ args: [set, value] }) => `CASE WHEN json_type(${set}) = 'ARRAY' THEN coalesce(list_contains(CAST(${set} AS JSON[]), coalesce(to_json(${value}), 'null'::JSON)), false) END`,
      clickhouse: ({ args: [set, value], types }) => `if(JSONType(${set}) = 'Array', has(JSONExtractArrayRaw(ifNull(${set}, 'null')), ${clickhouseJson(value!, types[1]!)}), NULL)`,
    },
    doc: "whether the array holds the value",
  }),
  scalar("range", {
    args: ["start: number, stop: number, step?: number", "start: datetime, stop: datetime, step?: timespan"],
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args: [start, stop, step], types }) => (types[0] === "datetime" ? datetimeRange("duckdb", start!, stop!, step ?? HOUR_US) : numberRange("duckdb", start!, stop!, step ?? "1")),
      clickhouse: ({ args: [start, stop, step], types }) => (types[0] === "datetime" ? datetimeRange("clickhouse", start!, stop!, step ?? HOUR_US) : numberRange("clickhouse", start!, stop!, step ?? "1")),
    },
    doc: `the numbers (or datetimes, 1h apart by default) from start to stop (included) step apart, as an array (at most ${VALUE_LIMITS.listElements.toLocaleString("en-US")} elements)`,
  }),
  scalar("zip", {
    args: "arrays...: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args }) =>
        duckdbArrays(args, (ls) => `list_transform(range(0, greatest(${ls.map((l) => `len(${l})`).join(", ")})), lambda kql_i: to_json([${ls.map((l) => `${l}[kql_i + 1]`).join(", ")}]))`),
      clickhouse: ({ args }) =>
        clickhouseArrays(args, (ls) => `arrayMap(kql_i -> concat('[', arrayStringConcat([${ls.map((l) => `if(kql_i <= length(${l}), ${l}[kql_i], 'null')`).join(", ")}], ','), ']'), range(1, greatest(${ls.map((l) => `length(${l})`).join(", ")}) + 1))`),
    },
    doc: "the arrays' elements paired by position (null where an array is shorter), as an array of arrays",
  }),
  scalar("bag_has_key", {
    args: "bag: dynamic, key: const string",
    result: "bool",
    nulls: "never",
    sql: {
      duckdb: ({ args: [bag], consts: [, key] }) => `coalesce(json_type(${bag}) = 'OBJECT' AND json_exists(${bag}, '$${keyPath(key).map((k) => `."${sqlText(k)}"`).join("")}'), false)`,
      clickhouse: ({ args: [bag], consts: [, key] }) => `(JSONType(ifNull(${bag}, 'null')) = 'Object' AND JSONHas(ifNull(${bag}, 'null'), ${keyPath(key).map((k) => `'${sqlText(k)}'`).join(", ")}))`,
    },
    doc: "whether the property bag has the key (a key or a JSONPath such as '$.a.b')",
  }),
  ...(
    [
      ["set_union", "the distinct elements of all the arrays, in the order they first appear"],
      ["set_intersect", "the distinct elements of the first array that every other array holds"],
      ["set_difference", "the distinct elements of the first array that no other array holds"],
    ] as const
  ).map(([name, doc]) =>
    scalar(name, {
      args: ["set1: dynamic, set2: dynamic", "set1: dynamic, set2: dynamic, sets...: dynamic"],
      result: "dynamic",
      nulls: "may",
      sql: { duckdb: ({ args }) => duckdbArrays(args, (ls) => setOf("duckdb", name, ls)), clickhouse: ({ args }) => clickhouseArrays(args, (ls) => setOf("clickhouse", name, ls)) },
      doc,
    }),
  ),
  scalar("set_equals", {
    args: "set1: dynamic, set2: dynamic",
    result: "bool",
    nulls: "may",
    sql: {
      duckdb: ({ args: [a, b] }) => `CASE WHEN json_type(${a}) = 'ARRAY' AND json_type(${b}) = 'ARRAY' THEN list_sort(list_distinct(CAST(${a} AS JSON[]))) = list_sort(list_distinct(CAST(${b} AS JSON[]))) END`,
      clickhouse: ({ args: [a, b] }) => `if(JSONType(${a}) = 'Array' AND JSONType(${b}) = 'Array', arraySort(arrayDistinct(JSONExtractArrayRaw(ifNull(${a}, 'null')))) = arraySort(arrayDistinct(JSONExtractArrayRaw(ifNull(${b}, 'null')))), NULL)`,
    },
    doc: "whether the two arrays hold the same distinct elements",
  }),
  scalar("jaccard_index", {
    args: "set1: dynamic, set2: dynamic",
    result: "real",
    nulls: "may",
    sql: {
      duckdb: ({ args: [a, b] }) => {
        const [l1, l2] = [`CAST(${a} AS JSON[])`, `CAST(${b} AS JSON[])`];
        return `CASE WHEN json_type(${a}) = 'ARRAY' AND json_type(${b}) = 'ARRAY' THEN len(list_intersect(list_distinct(${l1}), list_distinct(${l2}))) / nullif(len(list_distinct(list_concat(${l1}, ${l2}))), 0) END`;
      },
      clickhouse: ({ args: [a, b] }) => {
        const [l1, l2] = [`JSONExtractArrayRaw(ifNull(${a}, 'null'))`, `JSONExtractArrayRaw(ifNull(${b}, 'null'))`];
        return `if(JSONType(${a}) = 'Array' AND JSONType(${b}) = 'Array', length(arrayIntersect(arrayDistinct(${l1}), arrayDistinct(${l2}))) / nullIf(length(arrayDistinct(arrayConcat(${l1}, ${l2}))), 0), NULL)`;
      },
    },
    doc: "the size of the two sets' intersection over the size of their union (distinct elements)",
  }),
  scalar("bag_merge", {
    args: ["bag1: dynamic, bag2: dynamic", "bag1: dynamic, bag2: dynamic, bags...: dynamic"],
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args }) => bagMerge("duckdb", args), clickhouse: ({ args }) => bagMerge("clickhouse", args) },
    doc: "the bags' properties in one bag; on a key in several bags, the first bag's value wins",
  }),
  scalar("array_iff", {
    args: "condition_array: dynamic, when_true: any, when_false: any",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args, types }) => arrayIff("duckdb", args, types), clickhouse: ({ args, types }) => arrayIff("clickhouse", args, types) },
    doc: "per element of the condition array, the element of when_true (an array, or one value for all) where it is true, of when_false where it is false, null where it is neither a bool nor a number",
  }),
  scalar("array_index_of", {
    args: "array: dynamic, value: any, start?: long, length?: long, occurrence?: long",
    result: "long",
    nulls: "may",
    sql: { duckdb: ({ args, types }) => arrayIndexOf("duckdb", args, types[1]!), clickhouse: ({ args, types }) => arrayIndexOf("clickhouse", args, types[1]!) },
    doc: "the index of the value's occurrence-th match (1st by default) among length elements (-1: all) from start (negative: from the end); -1 when none",
  }),
  ...["strcat_array", "array_strcat"].map((name) =>
    scalar(name, {
      args: "array: dynamic, delimiter: const string",
      result: "string",
      sql: { duckdb: ({ args: [array, delimiter] }) => strcatArray("duckdb", name, array!, delimiter!), clickhouse: ({ args: [array, delimiter] }) => strcatArray("clickhouse", name, array!, delimiter!) },
      doc: `the array's elements as text joined by the delimiter${name === "array_strcat" ? " (strcat_array's older name)" : ""}`,
    }),
  ),
];

/** JSON text of a scalar on ClickHouse (null as `null`), the way DuckDB's to_json writes it. */
function clickhouseJson(sql: string, type: KqlType): string {
  switch (type) {
    case "string":
      return `toJSONString(ifNull(${sql}, ''))`;
    case "long":
    case "int":
      return `ifNull(toString(${sql}), 'null')`;
    case "real":
      return `multiIf(isNull(${sql}), 'null', isFinite(${sql}), toString(${sql}), 'null')`;
    case "bool":
      return `multiIf(isNull(${sql}), 'null', ${sql}, 'true', 'false')`;
    case "dynamic":
      return `ifNull(${sql}, 'null')`;
    default:
      return `ifNull(toJSONString(toString(${sql})), 'null')`;
  }
}

/** `list` shifted left by `count` places (right when negative), `fill` (an element's JSON) in the emptied places. */
function shift(engine: "duckdb" | "clickhouse", list: string, count: string, fill: string): string {
  const n = engine === "duckdb" ? `len(${list})` : `toInt64(length(${list}))`;
  const left = `least(greatest(${count}, 0), ${n})`;
  const right = `least(greatest(-(${count}), 0), ${n})`;
  if (engine === "duckdb") {
    const fills = (k: string) => `list_transform(range(0, ${k}), lambda kql_i: ${fill})`;
    return `list_concat(${fills(right)}, list_slice(${list}, ${left} + 1, ${n} - ${right}), ${fills(left)})`;
  }
  const fills = (k: string) => `arrayMap(kql_i -> ${fill}, range(toUInt64(${k})))`;
  return `arrayConcat(${fills(right)}, arraySlice(${list}, ${left} + 1, ${n} - ${right} - ${left}), ${fills(left)})`;
}

/** `list[start..end]` (KQL's 0-based, both included, negative from the end) as 1-based `from`/`length`. */
function slice(engine: "duckdb" | "clickhouse", list: string, start: string, end: string): string {
  const n = engine === "duckdb" ? `len(${list})` : `toInt64(length(${list}))`;
  const from = `greatest(CASE WHEN ${start} < 0 THEN ${start} + ${n} ELSE ${start} END, 0)`;
  const to = `least(CASE WHEN ${end} < 0 THEN ${end} + ${n} ELSE ${end} END, ${n} - 1)`;
  const length = `greatest(${to} - ${from} + 1, 0)`;
  return engine === "duckdb" ? `list_slice(${list}, ${from} + 1, ${from} + ${length})` : `arraySlice(${list}, ${from} + 1, ${length})`;
}

/** `list` rotated left by `count` places: the tail from the count on, then the head. */
function rotate(engine: "duckdb" | "clickhouse", list: string, count: string): string {
  const n = engine === "duckdb" ? `len(${list})` : `toInt64(length(${list}))`;
  const k = `((${count}) % greatest(${n}, 1) + greatest(${n}, 1)) % greatest(${n}, 1)`;
  return engine === "duckdb"
    ? `list_concat(list_slice(${list}, ${k} + 1, ${n}), list_slice(${list}, 1, ${k}))`
    : `arrayConcat(arraySlice(${list}, ${k} + 1), arraySlice(${list}, 1, ${k}))`;
}

/**
 * range(start, stop, step): the count is known before the array is built, so a count over the
 * list limit is refused (the engine raises) instead of building it; a zero step gives null.
 */
function numberRange(engine: "duckdb" | "clickhouse", start: string, stop: string, step: string): string {
  const count = `(floor((CAST(${stop} AS DOUBLE) - ${start}) / ${step}) + 1)`;
  const limit = VALUE_LIMITS.listElements;
  const refusal = runtimeTooLarge("range", "list");
  if (engine === "duckdb") {
    return `CASE WHEN ${step} = 0 THEN NULL WHEN ${count} > ${limit} THEN error('${refusal}') ELSE to_json(list_transform(range(0, CAST(least(greatest(${count}, 0), ${limit}) AS BIGINT)), lambda kql_i: ${start} + kql_i * ${step})) END`;
  }
  const n = `toUInt64(ifNull(least(greatest(${count}, 0), ${limit}), 0))`;
  return `if(isNull(${start}) OR isNull(${stop}) OR isNull(${step}) OR ${step} = 0, NULL, if(throwIf(ifNull(${count} > ${limit}, 0), '${refusal}') = 0, concat('[', arrayStringConcat(arrayMap(kql_i -> toString(assumeNotNull(${start}) + kql_i * assumeNotNull(${step})), range(${n})), ','), ']'), NULL))`;
}

/** One hour in microseconds (a timespan's SQL value): range()'s step over datetimes by default. */
const HOUR_US = "3600000000";

/** range() over datetimes: the microseconds from start, step apart, as ADX's datetime texts (7 fraction digits). */
function datetimeRange(engine: "duckdb" | "clickhouse", start: string, stop: string, step: string): string {
  const startUs = engine === "duckdb" ? `epoch_us(${start})` : `toInt64(toUnixTimestamp64Micro(${start}))`;
  const stopUs = engine === "duckdb" ? `epoch_us(${stop})` : `toInt64(toUnixTimestamp64Micro(${stop}))`;
  const count = `(floor((CAST(${stopUs} AS DOUBLE) - ${startUs}) / ${step}) + 1)`;
  const limit = VALUE_LIMITS.listElements;
  const refusal = runtimeTooLarge("range", "list");
  if (engine === "duckdb") {
    const element = `strftime(make_timestamp(${startUs} + kql_i * ${step}), '%Y-%m-%dT%H:%M:%S.%f0Z')`;
    return `CASE WHEN ${step} = 0 THEN NULL WHEN ${count} > ${limit} THEN error('${refusal}') ELSE to_json(list_transform(range(0, CAST(least(greatest(${count}, 0), ${limit}) AS BIGINT)), lambda kql_i: ${element})) END`;
  }
  const n = `toUInt64(ifNull(least(greatest(${count}, 0), ${limit}), 0))`;
  const element = `concat('"', formatDateTime(fromUnixTimestamp64Micro(assumeNotNull(${startUs}) + toInt64(kql_i) * assumeNotNull(${step}), 'UTC'), '%Y-%m-%dT%H:%i:%S.%f', 'UTC'), '0Z"')`;
  return `if(isNull(${start}) OR isNull(${stop}) OR isNull(${step}) OR ${step} = 0, NULL, if(throwIf(ifNull(${count} > ${limit}, 0), '${refusal}') = 0, concat('[', arrayStringConcat(arrayMap(kql_i -> ${element}, range(${n})), ','), ']'), NULL))`;
}

/** A key or a dotted JSONPath (`$.a.b`) as its keys. */
function keyPath(key: unknown): string[] {
  const text = String(key);
  return text.startsWith("$.") ? text.slice(2).split(".") : [text];
}

/** Text inside a SQL string literal (and a JSONPath's quoted key): quotes doubled, double quotes dropped. */
function sqlText(text: string): string {
  return text.replaceAll("'", "''").replaceAll('"', "");
}

/** set_union / set_intersect / set_difference over element lists: distinct, in the first occurrence's order (ADX). */
function setOf(engine: "duckdb" | "clickhouse", name: "set_union" | "set_intersect" | "set_difference", lists: string[]): string {
  const [first, ...others] = lists;
  if (engine === "duckdb") {
    const all = name === "set_union" ? `flatten([${lists.join(", ")}])` : first!;
    const kept = name === "set_union" ? "" : others.map((l) => `${name === "set_intersect" ? "" : "NOT "}coalesce(list_contains(${l}, kql_x), false)`).join(" AND ");
    return `list_filter(${all}, lambda kql_x, kql_i: list_position(${all}, kql_x) = kql_i${kept ? ` AND ${kept}` : ""})`;
  }
  const all = name === "set_union" ? `arrayConcat(${lists.join(", ")})` : first!;
  const kept = name === "set_union" ? "" : others.map((l) => `${name === "set_intersect" ? "" : "NOT "}has(${l}, kql_x)`).join(" AND ");
  return `arrayFilter((kql_x, kql_i) -> indexOf(${all}, kql_x) = kql_i${kept ? ` AND ${kept}` : ""}, ${all}, arrayEnumerate(${all}))`;
}

/** bag_merge: the bags' key/value pairs, a key kept at its first occurrence (null when an argument is not a bag). */
function bagMerge(engine: "duckdb" | "clickhouse", bags: string[]): string {
  if (engine === "duckdb") {
    const isBags = bags.map((b) => `json_type(${b}) = 'OBJECT'`).join(" AND ");
    const pairs = `flatten([${bags.map((b) => `list_transform(json_keys(${b}), lambda kql_k: {'k': kql_k, 'v': json_extract(${b}, '$."' || kql_k || '"')})`).join(", ")}])`;
    const keys = `list_transform(${pairs}, lambda kql_p: kql_p.k)`;
    return `CASE WHEN ${isBags} THEN to_json(map_from_entries(list_filter(${pairs}, lambda kql_p, kql_i: list_position(${keys}, kql_p.k) = kql_i))) END`;
  }
  const isBags = bags.map((b) => `JSONType(${b}) = 'Object'`).join(" AND ");
  const pairs = `arrayConcat(${bags.map((b) => `JSONExtractKeysAndValuesRaw(ifNull(${b}, 'null'))`).join(", ")})`;
  const kept = `arrayFilter((kql_p, kql_i) -> indexOf(arrayMap(kql_q -> kql_q.1, ${pairs}), kql_p.1) = kql_i, ${pairs}, arrayEnumerate(${pairs}))`;
  return `if(${isBags}, concat('{', arrayStringConcat(arrayMap(kql_p -> concat(toJSONString(kql_p.1), ':', kql_p.2), ${kept}), ','), '}'), NULL)`;
}

/** array_iff: each condition element picks the same position of an array argument, or a scalar argument's value. */
function arrayIff(engine: "duckdb" | "clickhouse", [condition, whenTrue, whenFalse]: string[], types: KqlType[]): string {
  if (engine === "duckdb") {
    const c = `CAST(${condition} AS JSON[])`;
    const element = `${c}[kql_i + 1]`;
    const truth = `CASE WHEN json_type(${element}) = 'BOOLEAN' THEN CAST(${element} AS BOOLEAN) WHEN json_type(${element}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(${element} AS DOUBLE) <> 0 END`;
    const pick = (x: string, type: KqlType) => (type === "dynamic" ? `CASE WHEN json_type(${x}) = 'ARRAY' THEN CAST(${x} AS JSON[])[kql_i + 1] ELSE ${x} END` : `to_json(${x})`);
    return `CASE WHEN json_type(${condition}) = 'ARRAY' THEN to_json(list_transform(range(0, len(${c})), lambda kql_i: CASE ${truth} WHEN true THEN ${pick(whenTrue!, types[1]!)} WHEN false THEN ${pick(whenFalse!, types[2]!)} END)) END`;
  }
  const c = `JSONExtractArrayRaw(ifNull(${condition}, 'null'))`;
  const element = `${c}[kql_i]`;
  const truth = `multiIf(${element} = 'true', 1, ${element} = 'false', 0, JSONType(${element}) IN ('Int64', 'UInt64', 'Double'), toFloat64OrZero(${element}) != 0, -1)`;
  const pick = (x: string, type: KqlType) =>
    type === "dynamic" ? `if(JSONType(ifNull(${x}, 'null')) = 'Array', if(kql_i <= length(JSONExtractArrayRaw(ifNull(${x}, 'null'))), JSONExtractArrayRaw(ifNull(${x}, 'null'))[kql_i], 'null'), ifNull(${x}, 'null'))` : clickhouseJson(x, type);
  return `if(JSONType(${condition}) = 'Array', concat('[', arrayStringConcat(arrayMap(kql_i -> multiIf(${truth} = 1, ${pick(whenTrue!, types[1]!)}, ${truth} = 0, ${pick(whenFalse!, types[2]!)}, 'null'), range(1, length(${c}) + 1)), ','), ']'), NULL)`;
}

/** array_index_of: the matching indexes within [start, start + length), the occurrence-th of them or -1. */
function arrayIndexOf(engine: "duckdb" | "clickhouse", [array, value, start = "0", length = "-1", occurrence = "1"]: string[], valueType: KqlType): string {
  const n = engine === "duckdb" ? `len(CAST(${array} AS JSON[]))` : `toInt64(length(JSONExtractArrayRaw(ifNull(${array}, 'null'))))`;
  const from = `CASE WHEN ${start} < 0 THEN greatest(${start} + ${n}, 0) ELSE least(${start}, ${n}) END`;
  const to = `CASE WHEN ${length} < 0 THEN ${n} ELSE least(${from} + ${length}, ${n}) END`;
  if (engine === "duckdb") {
    const matches = `list_filter(range(${from}, ${to}), lambda kql_i: CAST(${array} AS JSON[])[kql_i + 1] = coalesce(to_json(${value}), 'null'::JSON))`;
    return `CASE WHEN json_type(${array}) = 'ARRAY' THEN CASE WHEN ${occurrence} < 1 THEN -1 ELSE coalesce(${matches}[${occurrence}], -1) END END`;
  }
  const c = `JSONExtractArrayRaw(ifNull(${array}, 'null'))`;
  const matches = `arrayFilter(kql_i -> ${c}[kql_i + 1] = ${clickhouseJson(value!, valueType)}, range(toUInt64(ifNull(${from}, 0)), toUInt64(greatest(ifNull(${to}, 0), ifNull(${from}, 0)))))`;
  return `if(JSONType(${array}) = 'Array', if(${occurrence} >= 1 AND ${occurrence} <= length(${matches}), toInt64(${matches}[${occurrence}]), -1), NULL)`;
}

/**
 * strcat_array: elements as text (a string without its quotes, null as empty) joined by the delimiter.
 * Bounded before it is built: the joined text is at most the array's JSON plus one delimiter per element.
 */
function strcatArray(engine: "duckdb" | "clickhouse", name: string, array: string, delimiter: string): string {
  const refusal = runtimeTooLarge(name, "string");
  const limit = VALUE_LIMITS.stringBytes;
  if (engine === "duckdb") {
    const list = `CAST(${array} AS JSON[])`;
    const bound = `strlen(CAST(${array} AS VARCHAR)) + strlen(${delimiter}) * len(${list})`;
    const text = `array_to_string(list_transform(${list}, lambda kql_x: coalesce(CASE json_type(kql_x) WHEN 'VARCHAR' THEN kql_x ->> '$' WHEN 'NULL' THEN '' ELSE CAST(kql_x AS VARCHAR) END, '')), ${delimiter})`;
    return `CASE WHEN json_type(${array}) <> 'ARRAY' THEN NULL WHEN ${bound} > ${limit} THEN error('${refusal}') ELSE ${text} END`;
  }
  const list = `JSONExtractArrayRaw(ifNull(${array}, 'null'))`;
  const bound = `toInt64(length(ifNull(${array}, ''))) + toInt64(length(${delimiter})) * toInt64(length(${list}))`;
  const text = `arrayStringConcat(arrayMap(kql_x -> multiIf(JSONType(kql_x) = 'String', JSONExtractString(kql_x), kql_x = 'null', '', kql_x), ${list}), ${delimiter})`;
  return `if(JSONType(${array}) = 'Array', if(throwIf(${bound} > ${limit}, '${refusal}') = 0, ${text}, ''), NULL)`;
}
