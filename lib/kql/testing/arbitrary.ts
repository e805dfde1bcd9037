/**
 * fast-check generator of KQL pipelines built from the grammar of docs/api.md §6, for property
 * tests here and against the HTTP endpoint (telemetry). Most generated queries are valid: the
 * generator tracks the columns each operator leaves; a few carry a junk token, to exercise errors.
 *
 * Usage: `fc.assert(fc.asyncProperty(kqlQuery(), async (query) => { … }))`.
 */
import fc from "fast-check";
import { TABLES, type TableName } from "../tables";

type Kind = "string" | "number" | "datetime" | "json" | "bool" | "timespan";
interface Column {
  name: string;
  kind: Kind;
}

const STRINGS = ["D1", "D2", "temperature", "Temperature", "RTM1", "HOU1", "OUL1", "", "x'y", 'a"b', "motor", "current", "North", "Bay 1", "e", "%", "_", ".*", "\\"];
const NUMBERS = ["0", "1", "2", "-1", "7", "20", "0.5", "99.5", "1e3", "100"];
const SPANS = ["1ms", "100ms", "1s", "30s", "1m", "5m", "15m", "1h", "7h", "1d", "5d", "7d"];
const DATETIMES = ["datetime(2026-01-01)", "datetime(2026-01-01 00:30)", "datetime(2026-01-02T12:00:00.999Z)", "datetime(2025-12-01)", "ago(1h)", "ago(30d)", "now()", "datetime(null)"];
const KEYS = ["Area", "Unit", "Line", "DeviceType", "topologyReference", "Missing"];
const JUNK = ["|", ")", "(", '"', "where", ",", "==", "by", "'", "[", "..", "#", "1x", "summarize", "project-away"];

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
const quote = (text: string) => JSON.stringify(text);

function columnsOf(table: TableName): Column[] {
  return TABLES[table].columns.map((c) => ({
    name: c.name,
    kind: c.kqlType === "string" ? "string" : c.kqlType === "datetime" ? "datetime" : c.form === "number" ? "number" : "json",
  }));
}

/** Deterministic interpretation of random seeds as grammar choices, with the current columns in view. */
class Builder {
  private i = 0;
  constructor(private readonly seeds: number[]) {}
  n(): number {
    const seed = this.seeds[this.i % this.seeds.length]! + Math.floor(this.i / this.seeds.length);
    this.i++;
    return seed;
  }
  of<T>(items: readonly T[]): T {
    return pick(items, this.n());
  }
  column(columns: Column[], kinds?: Kind[]): Column | undefined {
    const fitting = kinds ? columns.filter((c) => kinds.includes(c.kind)) : columns;
    return fitting.length ? this.of(fitting) : undefined;
  }

  numberExpr(columns: Column[], depth = 0): string {
    const column = this.column(columns, ["number"]);
    const choice = this.n() % 9;
    if (!column || choice === 0) return this.of(NUMBERS);
    if (depth > 1) return column.name;
    switch (choice) {
      case 1:
        return `todouble(${column.name})`;
      case 2:
        return `${this.numberExpr(columns, depth + 1)} ${this.of(["+", "-", "*", "/", "%"])} ${this.numberExpr(columns, depth + 1)}`;
      case 3:
        return `${this.of(["abs", "round", "sqrt", "log"])}(${this.numberExpr(columns, depth + 1)})`;
      case 4:
        return `bin(${column.name}, ${this.of(["1", "10", "0.5", "2.5"])})`;
      case 5:
        return `iff(${this.predicate(columns, depth + 1)}, ${this.numberExpr(columns, depth + 1)}, ${this.of(NUMBERS)})`;
      case 6: {
        const text = this.column(columns, ["string"]);
        return text ? `strlen(${text.name})` : column.name;
      }
      case 7: {
        const json = this.column(columns, ["json"]);
        return json ? `todouble(${json.name}.${this.of(KEYS)})` : `tolong(${column.name})`;
      }
      default:
        return column.name;
    }
  }

  stringExpr(columns: Column[], depth = 0): string {
    const choice = this.n() % 6;
    const column = this.column(columns, ["string"]);
    if (choice === 0 || depth > 1) return column ? column.name : quote(this.of(STRINGS));
    if (choice === 1) return `tolower(${this.stringExpr(columns, depth + 1)})`;
    if (choice === 2) {
      const json = this.column(columns, ["json"]);
      return json ? `tostring(${json.name}.${this.of(KEYS)})` : quote(this.of(STRINGS));
    }
    if (choice === 3) return `tostring(${this.numberExpr(columns, depth + 1)})`;
    if (choice === 4) return `iff(${this.predicate(columns, depth + 1)}, ${quote(this.of(STRINGS))}, ${column?.name ?? quote("")})`;
    return column ? column.name : quote(this.of(STRINGS));
  }

  datetimeExpr(columns: Column[]): string {
    const column = this.column(columns, ["datetime"]);
    const choice = this.n() % 5;
    if (!column || choice === 0) return this.of(DATETIMES);
    if (choice === 1) return `bin(${column.name}, ${this.of(SPANS)})`;
    if (choice === 2) return `${column.name} ${this.of(["+", "-"])} ${this.of(SPANS)}`;
    return column.name;
  }

  predicate(columns: Column[], depth = 0): string {
    const choice = this.n() % 12;
    if (depth < 2 && choice === 0) return `${this.predicate(columns, depth + 1)} ${this.of(["and", "or"])} ${this.predicate(columns, depth + 1)}`;
    if (depth < 2 && choice === 1) return `not(${this.predicate(columns, depth + 1)})`;
    if (choice === 2) {
      const any = this.column(columns);
      return any ? `${this.of(["isnull", "isnotnull", "isempty", "isnotempty"])}(${any.name})` : "true";
    }
    if (choice === 3 || choice === 4) {
      const op = this.of(["==", "!=", "=~", "!~", "has", "!has", "contains", "!contains", "startswith", "!startswith", "endswith", "!endswith", "has_cs", "contains_cs", "startswith_cs", "endswith_cs"]);
      return `${this.stringExpr(columns)} ${op} ${quote(this.of(STRINGS))}`;
    }
    if (choice === 5) return `${this.stringExpr(columns)} ${this.of(["in", "!in", "in~", "!in~"])} (${quote(this.of(STRINGS))}, ${quote(this.of(STRINGS))})`;
    if (choice === 6 || choice === 7) return `${this.numberExpr(columns)} ${this.of(["==", "!=", "<", "<=", ">", ">="])} ${this.of(NUMBERS)}`;
    if (choice === 8) return `${this.numberExpr(columns)} ${this.of(["between", "!between"])} (${this.of(NUMBERS)} .. ${this.of(NUMBERS)})`;
    if (choice === 9) {
      const column = this.column(columns, ["datetime"]);
      if (!column) return "true";
      return this.n() % 2
        ? `${column.name} ${this.of(["<", ">=", "==", "!="])} ${this.of(DATETIMES)}`
        : `${column.name} between (${this.of(DATETIMES)} .. ${this.of(DATETIMES)})`;
    }
    if (choice === 10) {
      const json = this.column(columns, ["json"]);
      return json ? `${json.name}.${this.of(KEYS)} == ${quote(this.of(STRINGS))}` : "false";
    }
    const bool = this.column(columns, ["bool"]);
    return bool ? bool.name : this.of(["true", "false"]);
  }

  expression(columns: Column[]): { text: string; kind: Kind } {
    switch (this.n() % 7) {
      case 4: {
        const time = this.column(columns, ["datetime"]);
        return time ? { text: `${time.name} - ${this.datetimeExpr(columns)}`, kind: "timespan" } : { text: `${this.of(SPANS)} * 2`, kind: "timespan" };
      }
      case 5:
        return { text: `case(${this.predicate(columns)}, ${this.numberExpr(columns)}, ${this.predicate(columns)}, real(null), ${this.of(NUMBERS)})`, kind: "number" };
      case 6: {
        const json = this.column(columns, ["json"]);
        return json ? { text: `${json.name}[${quote(this.of(KEYS))}]`, kind: "json" } : { text: "dynamic(null)", kind: "json" };
      }
      case 0:
        return { text: this.stringExpr(columns), kind: "string" };
      case 1:
        return { text: this.datetimeExpr(columns), kind: "datetime" };
      case 2:
        return { text: this.predicate(columns), kind: "bool" };
      default:
        return { text: this.numberExpr(columns), kind: "number" };
    }
  }

  sortKeys(columns: Column[]): string {
    const column = this.column(columns);
    if (!column) return "1";
    const direction = this.of(["", " asc", " desc"]);
    const nulls = this.of(["", "", " nulls first", " nulls last"]);
    return `${column.name}${direction}${nulls}`;
  }

  aggregate(columns: Column[]): { text: string; name?: string; kind: Kind } {
    const numeric = this.column(columns, ["number"]);
    const any = this.column(columns);
    switch (this.n() % 10) {
      case 0:
        return { text: "count()", name: "count_", kind: "number" };
      case 1:
        return { text: `countif(${this.predicate(columns)})`, name: "countif_", kind: "number" };
      case 2:
      case 3:
        return numeric ? { text: `${this.of(["sum", "avg", "min", "max"])}(${numeric.name})`, kind: "number" } : { text: "count()", name: "count_", kind: "number" };
      case 4:
        return any ? { text: `dcount(${any.name})`, kind: "number" } : { text: "count()", name: "count_", kind: "number" };
      case 5:
        return numeric ? { text: `percentile(${numeric.name}, ${this.of(["50", "90", "99.5", "0", "100"])})`, kind: "number" } : { text: "count()", name: "count_", kind: "number" };
      case 6:
        return any ? { text: `any(${any.name})`, kind: any.kind } : { text: "count()", name: "count_", kind: "number" };
      case 7:
        return any ? { text: `make_list(${any.name})`, kind: "json" } : { text: "count()", name: "count_", kind: "number" };
      default:
        return { text: `count()`, name: "count_", kind: "number" };
    }
  }

  /** Scalar functions beyond the core (dates, strings, dynamic values, math). */
  extraExpression(columns: Column[]): { text: string; kind: Kind } {
    const time = this.column(columns, ["datetime"])?.name ?? this.of(DATETIMES);
    const text = this.column(columns, ["string"])?.name ?? quote(this.of(STRINGS));
    const number = this.numberExpr(columns);
    const json = this.column(columns, ["json"])?.name ?? "dynamic([1, 2, 3])";
    switch (this.n() % 17) {
      case 0:
        return { text: `${this.of(["startofday", "startofweek", "startofmonth", "startofyear", "endofday", "endofweek", "endofmonth", "endofyear"])}(${time})`, kind: "datetime" };
      case 1:
        return { text: `datetime_add(${quote(this.of(["day", "hour", "month", "year", "minute", "week"]))}, ${this.of(["1", "-2", "30"])}, ${time})`, kind: "datetime" };
      case 2:
        return { text: `datetime_diff(${quote(this.of(["day", "hour", "minute", "second", "month"]))}, ${time}, datetime(2026-01-01))`, kind: "number" };
      case 3:
        return { text: `format_datetime(${time}, ${quote(this.of(["yyyy-MM-dd", "HH:mm:ss.fff", "dd/MM/yy h tt"]))})`, kind: "string" };
      case 4:
        return { text: `strcat(${text}, "-", ${number})`, kind: "string" };
      case 5:
        return { text: `substring(${text}, ${this.of(["0", "1", "3", "-1"])}, ${this.of(["1", "2", "10"])})`, kind: "string" };
      case 6:
        return { text: `extract(${quote(this.of(["([a-z]+)", "(\\d+)", "(.)"]))}, 1, ${text})`, kind: "string" };
      case 7:
        return { text: `replace_regex(${text}, ${quote(this.of(["[aeiou]", "\\d", "^."]))}, "_")`, kind: "string" };
      case 8:
        return { text: `indexof(${text}, ${quote(this.of(STRINGS))})`, kind: "number" };
      case 9:
        return { text: `array_length(${json})`, kind: "number" };
      case 10:
        return { text: `coalesce(${number}, ${this.of(NUMBERS)})`, kind: "number" };
      case 11:
        return { text: `${this.of(["max_of", "min_of"])}(${number}, ${this.of(NUMBERS)})`, kind: "number" };
      case 12:
        return { text: `pow(${number}, ${this.of(["2", "0.5", "-1"])})`, kind: "number" };
      case 13:
        return { text: `bin_at(${time}, ${this.of(SPANS)}, datetime(2026-01-01 00:07))`, kind: "datetime" };
      case 14:
        return { text: `split(${text}, ${quote(this.of(["-", "e", " "]))})`, kind: "json" };
      default:
        return { text: `hash(${text}, 10)`, kind: "number" };
    }
  }

  /** One operator; returns its text and the columns it leaves. */
  operator(columns: Column[], index: number, table: TableName): { text: string; columns: Column[] } {
    const extended = this.n() % 3 === 0 ? this.extendedOperator(columns, index, table) : undefined;
    if (extended) return extended;
    return this.coreOperator(columns, index);
  }

  /** let, union, join, lookup, make-series, mv-expand, top-nested, parse, sample, … */
  extendedOperator(columns: Column[], index: number, table: TableName): { text: string; columns: Column[] } | undefined {
    const other: TableName = table === "States" ? "Events" : "States";
    const hasDevice = columns.some((c) => c.name === "DeviceId" && c.kind === "string");
    switch (this.n() % 17) {
      case 0: {
        const e = this.extraExpression(columns);
        return { text: `extend x${index} = ${e.text}`, columns: [...columns.filter((c) => c.name !== `x${index}`), { name: `x${index}`, kind: e.kind }] };
      }
      case 1: {
        if (!hasDevice) return undefined;
        const kind = this.of(["inner", "innerunique", "leftouter", "rightouter", "fullouter", "leftsemi", "leftanti", "rightsemi", "rightanti"]);
        const right = `(${other} | summarize n${index} = count() by DeviceId)`;
        const rightColumns: Column[] = [{ name: "DeviceId1", kind: "string" }, { name: `n${index}`, kind: "number" }];
        const out = kind.startsWith("right") && (kind.endsWith("semi") || kind.endsWith("anti")) ? [{ name: "DeviceId", kind: "string" as Kind }, { name: `n${index}`, kind: "number" as Kind }] : kind.startsWith("left") && kind !== "leftouter" ? columns : [...columns, ...rightColumns.filter((c) => !columns.some((x) => x.name === c.name))];
        if (out.length !== new Set(out.map((c) => c.name)).size) return undefined;
        return { text: `join kind=${kind} ${right} on DeviceId`, columns: out };
      }
      case 2: {
        if (!hasDevice) return undefined;
        return { text: `lookup (${other} | summarize m${index} = count() by DeviceId) on DeviceId`, columns: [...columns, { name: `m${index}`, kind: "number" }] };
      }
      case 3: {
        const time = this.column(columns, ["datetime"]);
        const numberColumn = this.column(columns, ["number"]);
        if (!time) return undefined;
        const by = this.column(columns, ["string"]);
        const aggregate = numberColumn ? this.of([`avg(${numberColumn.name})`, `sum(${numberColumn.name})`, "count()", `max(${numberColumn.name})`]) : "count()";
        const range = this.n() % 2 ? " from datetime(2026-01-01) to datetime(2026-01-02)" : "";
        return {
          text: `make-series s${index} = ${aggregate} default = ${this.of(["0", "real(null)", "-1"])} on ${time.name}${range} step ${this.of(["1h", "30m", "6h", "1d"])}${by ? ` by ${by.name}` : ""}`,
          columns: [...(by ? [by] : []), { name: `s${index}`, kind: "json" }, { name: time.name, kind: "json" }],
        };
      }
      case 4: {
        const json = this.column(columns, ["json"]);
        if (!json) return undefined;
        const typed = this.n() % 2 === 0;
        return { text: `mv-expand ${json.name}${typed ? " to typeof(real)" : ""}${this.n() % 2 ? " limit 3" : ""}`, columns: columns.map((c) => (c === json && typed ? { name: c.name, kind: "number" as Kind } : c)) };
      }
      case 5: {
        const key = this.column(columns, ["string"]);
        if (!key) return undefined;
        return { text: `top-nested ${this.of(["1", "2", "5"])} of ${key.name} by count()`, columns: [key, { name: `aggregated_${key.name}`, kind: "number" }] };
      }
      case 6: {
        const text = this.column(columns, ["string"]);
        if (!text) return undefined;
        if (this.n() % 4 === 0) {
          const options = this.of(["", " with (pair_delimiter=' ', kv_delimiter='=')", " with (pair_delimiter=',', kv_delimiter=':', greedy=true)", " with (quote='\"', escape='\\\\')"]);
          return { text: `parse-kv ${text.name} as (p${index}a: string, p${index}b: long)${options}`, columns: [...columns, { name: `p${index}a`, kind: "string" }, { name: `p${index}b`, kind: "number" }] };
        }
        return { text: `${this.of(["parse", "parse", "parse-where", "parse kind=relaxed"])} ${text.name} with p${index}a "${this.of(["-", "e", " ", "1"])}" p${index}b${this.n() % 2 ? ":long" : ""}`, columns: [...columns, { name: `p${index}a`, kind: "string" }, { name: `p${index}b`, kind: "string" }] };
      }
      case 7:
        return { text: `sample ${this.of(["1", "3", "100"])}`, columns };
      case 8: {
        if (columns.length < 2) return undefined;
        const first = this.of(columns);
        return { text: `project-reorder ${first.name}${this.of(["", " asc", " desc"])}`, columns: [first, ...columns.filter((c) => c !== first)] };
      }
      case 9: {
        const kept = this.of(columns);
        return kept ? { text: `project-keep ${kept.name}`, columns: [kept] } : undefined;
      }
      case 10:
        return { text: `union (${table} | take 2 | project ${columns.map((c) => c.name).filter((n) => columnsOf(table).some((t) => t.name === n)).join(", ") || "DeviceId"})`, columns };
      case 11: {
        const numeric = this.column(columns, ["number"]);
        if (!numeric) return undefined;
        const aggregate = this.of([`percentiles(${numeric.name}, 50, 90)`, `stdev(${numeric.name})`, `variance(${numeric.name})`, `sumif(${numeric.name}, ${numeric.name} > 1)`, `avgif(${numeric.name}, ${numeric.name} > 1)`, `make_set(${numeric.name}, 3)`, `make_list(${numeric.name}, 2)`, `percentiles_array(${numeric.name}, 10, 50)`, `take_any(${numeric.name})`, `count_distinct(${numeric.name})`, `dcountif(${numeric.name}, true)`]);
        return { text: `summarize g${index} = ${aggregate}`, columns: [{ name: `g${index}`, kind: "number" }] };
      }
      case 12: {
        const predicate = this.of(['Name has_any ("temperature", "x")', 'Name has_all ("a")', 'Name hasprefix "te"', 'Name !hassuffix "ure"', 'Name matches regex "^t.*e$"', 'Name in (dynamic(["running", "x"]))', 'Name !in~ ("RUNNING")']);
        return columns.some((c) => c.name === "Name" && c.kind === "string") ? { text: `where ${predicate}`, columns } : undefined;
      }
      case 13: {
        // mv-apply: the pipeline runs on each row's elements apart (its columns follow the row's).
        const json = this.column(columns, ["json"]);
        if (!json) return undefined;
        const v = `v${index}`;
        const [pipeline, out] = this.of<[string, Column[]]>([
          ["take 2", [{ name: v, kind: "number" }]],
          [`top 1 by ${v}`, [{ name: v, kind: "number" }]],
          [`summarize s${index} = sum(${v}), l${index} = make_list(${v})`, [{ name: `s${index}`, kind: "number" }, { name: `l${index}`, kind: "json" }]],
          [`where ${v} > 1 | count`, [{ name: "Count", kind: "number" }]],
          [`extend w${index} = ${v} * 2 | project w${index}`, [{ name: `w${index}`, kind: "number" }]],
        ]);
        const kept = columns.filter((c) => !out.some((o) => o.name === c.name));
        return { text: `mv-apply ${this.n() % 2 ? `with_itemindex=i${index} ` : ""}${v} = ${json.name} to typeof(real)${this.n() % 2 ? " limit 4" : ""} on (${pipeline})`, columns: [...kept, ...out] };
      }
      case 14: {
        const key = this.column(columns, ["string"]);
        if (!key) return undefined;
        const [pipeline, out] = this.of<[string, Column[]]>([
          ["take 1", columns],
          [`summarize n${index} = count() by ${key.name}`, [key, { name: `n${index}`, kind: "number" }]],
          ["count", [{ name: "Count", kind: "number" }]],
          [`distinct ${key.name}`, [key]],
        ]);
        return { text: `partition ${this.n() % 2 ? "hint.strategy=shuffle " : ""}by ${key.name} (${pipeline})`, columns: out };
      }
      case 15: {
        // The graph operators: edges between two string columns' values, a pattern of edges of several lengths.
        const [a, b] = [this.column(columns, ["string"]), this.of(columns.filter((c) => c.kind === "string"))];
        if (!a || !b) return undefined;
        const graph = `make-graph ${a.name} --> ${b.name} with_node_id=id${index}${this.n() % 2 ? ` | graph-mark-components with_component_id=k${index}` : ""}`;
        const range = this.of(["", "*1..2", "*2..3", "*1..4"]);
        const edge = this.of([`-[e${index}${range}]->`, `<-[e${index}${range}]-`, `-[e${index}${range}]-`]);
        const ends: Column[] = [{ name: `s${index}`, kind: "string" }, { name: `t${index}`, kind: "string" }];
        const listed = range ? `map(e${index}, ${a.name})` : `pack_array(e${index}.${a.name})`;
        switch (this.n() % 4) {
          case 0:
            return { text: `${graph} | graph-to-table nodes`, columns: [{ name: `id${index}`, kind: "string" }, ...(graph.includes("mark") ? [{ name: `k${index}`, kind: "number" as Kind }] : [])] };
          case 1:
            return { text: `${graph} | graph-to-table edges`, columns };
          case 2:
            return {
              text: `${graph} | graph-match ${this.of(["", "cycles=none ", "cycles=all "])}(x${index})${edge}(y${index}) where x${index}.id${index} != "" project s${index} = x${index}.id${index}, t${index} = y${index}.id${index}, p${index} = ${listed}`,
              columns: [...ends, { name: `p${index}`, kind: "json" }],
            };
          default:
            return { text: `${graph} | graph-shortest-paths ${this.of(["", "output=all "])}(x${index})-[e${index}*1..3]->(y${index}) project s${index} = x${index}.id${index}, t${index} = y${index}.id${index}, n${index} = array_length(map(e${index}, ${a.name}))`, columns: [...ends, { name: `n${index}`, kind: "number" }] };
        }
      }
      default:
        return { text: "getschema", columns: [{ name: "ColumnName", kind: "string" }, { name: "ColumnOrdinal", kind: "number" }, { name: "DataType", kind: "string" }, { name: "ColumnType", kind: "string" }] };
    }
  }

  coreOperator(columns: Column[], index: number): { text: string; columns: Column[] } {
    const choice = this.n() % 15;
    if (choice === 14) {
      // arg_max/arg_min(key, *) by one column: the by column, the key, then every other column.
      const key = this.column(columns, ["datetime", "number", "string"]);
      const by = this.column(columns, ["string"]);
      if (!key || !by || key === by) return { text: "take 1", columns };
      const rest = columns.filter((c) => c !== key && c !== by);
      return { text: `summarize ${this.of(["arg_max", "arg_min"])}(${key.name}, *) by ${by.name}`, columns: [by, key, ...rest] };
    }
    const fresh = (kind: Kind) => ({ name: `c${index}_${kind}`, kind });
    switch (choice) {
      case 0:
      case 1:
      case 2:
        return { text: `where ${this.predicate(columns)}`, columns };
      case 3: {
        const e = this.expression(columns);
        const column = fresh(e.kind);
        return { text: `extend ${column.name} = ${e.text}`, columns: [...columns.filter((c) => c.name !== column.name), column] };
      }
      case 4: {
        const kept = columns.filter((_, i) => (this.n() + i) % 3 !== 0);
        const list = kept.length ? kept : columns.slice(0, 1);
        if (!list.length) return { text: "take 5", columns };
        return { text: `project ${list.map((c) => c.name).join(", ")}`, columns: list };
      }
      case 5: {
        if (columns.length < 2) return { text: "take 3", columns };
        const away = this.of(columns);
        return { text: `project-away ${away.name}`, columns: columns.filter((c) => c !== away) };
      }
      case 6: {
        const column = this.column(columns);
        if (!column) return { text: "take 2", columns };
        const renamed = { name: `r${index}`, kind: column.kind };
        return { text: `project-rename ${renamed.name} = ${column.name}`, columns: columns.map((c) => (c === column ? renamed : c)) };
      }
      case 7:
      case 8: {
        const aggregate = this.aggregate(columns);
        const name = `a${index}`;
        const byColumn = this.column(columns, ["string", "datetime", "number"]);
        let by = "";
        const out: Column[] = [];
        if (byColumn && this.n() % 3 !== 0) {
          const key = byColumn.kind === "datetime" ? `bin(${byColumn.name}, ${this.of(SPANS)})` : byColumn.kind === "number" ? `bin(${byColumn.name}, 10)` : byColumn.name;
          by = ` by ${byColumn.name} = ${key}`;
          out.push({ name: byColumn.name, kind: byColumn.kind });
        }
        out.push({ name, kind: aggregate.kind });
        return { text: `summarize ${name} = ${aggregate.text}${by}`, columns: out };
      }
      case 9:
        return { text: `${this.of(["sort", "order"])} by ${this.sortKeys(columns)}`, columns };
      case 10:
        return { text: `top ${this.of(["1", "3", "10"])} by ${this.sortKeys(columns)}`, columns };
      case 11:
        return { text: `${this.of(["take", "limit"])} ${this.of(["0", "1", "5", "100"])}`, columns };
      case 12: {
        const column = this.column(columns);
        return column ? { text: `distinct ${column.name}`, columns: [column] } : { text: "distinct *", columns };
      }
      default:
        return { text: "count", columns: [{ name: "Count", kind: "number" }] };
    }
  }
}

interface KqlQueryOptions {
  tables?: TableName[];
  maxOperators?: number;
  /** Share of queries (0..1) that get one junk token spliced in. */
  junk?: number;
  /** Also the operators and functions beyond the core (join, make-series, mv-expand, …). */
  extended?: boolean;
}

/** Random KQL pipelines (strings). */
export function kqlQuery(options: KqlQueryOptions = {}): fc.Arbitrary<string> {
  const tables = options.tables ?? (["States", "Events"] as TableName[]);
  const junkShare = options.junk ?? 0.1;
  return fc
    .record({
      table: fc.constantFrom(...tables),
      seeds: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
      operators: fc.nat({ max: options.maxOperators ?? 5 }),
      render: fc.boolean(),
      junk: fc.double({ min: 0, max: 1, noNaN: true }),
      junkAt: fc.nat(),
      junkToken: fc.constantFrom(...JUNK),
    })
    .map(({ table, seeds, operators, render, junk, junkAt, junkToken }) => {
      const builder = new Builder(seeds);
      let columns = columnsOf(table);
      const parts: string[] = [table];
      for (let i = 0; i < operators; i++) {
        const op = options.extended ? builder.operator(columns, i, table) : builder.coreOperator(columns, i);
        parts.push(op.text);
        columns = op.columns;
      }
      if (render && operators > 0 && seeds[0]! % 4 === 0) parts.push(`render ${builder.of(["timechart", "barchart", "table"])}`);
      let text = parts.join(" | ");
      if (options.extended && seeds[0]! % 5 === 1) text = `let limit = ${builder.of(NUMBERS)}; let span = ${builder.of(SPANS)}; ${text}`;
      if (junk < junkShare) {
        const at = junkAt % (text.length + 1);
        text = `${text.slice(0, at)} ${junkToken} ${text.slice(at)}`;
      }
      return text;
    });
}
