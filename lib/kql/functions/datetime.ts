/** KQL's datetime functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";

/** A count of microseconds since 1970 as a datetime, null outside KQL's years 1–9999 (ClickHouse's 1900–2299). */
const fromMicros = {
  duckdb: (us: string) => `CASE WHEN ${us} BETWEEN -62135596800000000 AND 253402300799999999 THEN make_timestamp(${us}) END`,
  clickhouse: (us: string) => `if(${us} BETWEEN -2208988800000000 AND 10413791999999999, fromUnixTimestamp64Micro(${us}, 'UTC'), NULL)`,
};

/** datetime_add's and datetime_diff's periods (the part is a literal, checked when the query is analysed). */
const PARTS = ["year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond", "nanosecond"] as const;
const partOf = (part: unknown) => String(part).toLowerCase();
const checkPart = (part: unknown) => ((PARTS as readonly string[]).includes(partOf(part)) ? undefined : `Unknown datetime part '${partOf(part)}'`);

const DUCKDB_ADD: Record<string, (n: string) => string> = {
  year: (n) => `to_years(CAST(${n} AS INTEGER))`,
  quarter: (n) => `to_months(CAST(3 * ${n} AS INTEGER))`,
  month: (n) => `to_months(CAST(${n} AS INTEGER))`,
  week: (n) => `to_days(CAST(7 * ${n} AS INTEGER))`,
  day: (n) => `to_days(CAST(${n} AS INTEGER))`,
  hour: (n) => `to_hours(${n})`,
  minute: (n) => `to_minutes(${n})`,
  second: (n) => `to_seconds(${n})`,
  millisecond: (n) => `to_milliseconds(${n})`,
  microsecond: (n) => `to_microseconds(${n})`,
  nanosecond: (n) => `to_microseconds(${n} // 1000)`,
};

const CLICKHOUSE_CALENDAR_ADD: Record<string, string> = { year: "addYears", quarter: "addQuarters", month: "addMonths", week: "addWeeks", day: "addDays" };
const CLICKHOUSE_MICROS_PER: Record<string, string> = { hour: "3600000000", minute: "60000000", second: "1000000", millisecond: "1000", microsecond: "1" };

function clickhouseAdd(part: string, n: string, x: string): string {
  const calendar = CLICKHOUSE_CALENDAR_ADD[part];
  if (calendar) return `${calendar}(toDateTime64(${x}, 6, 'UTC'), ${n})`;
  const us = `toUnixTimestamp64Micro(${x})`;
  return fromMicros.clickhouse(part === "nanosecond" ? `(${us} + intDiv(${n}, 1000))` : `(${us} + ${n} * ${CLICKHOUSE_MICROS_PER[part]})`);
}

/** unixtime_*_todatetime: a number of units since 1970; `scale` turns it into microseconds. */
const unixtime = (name: string, scale: string, unit: string) =>
  scalar(name, {
    args: `${unit}: real`,
    result: "datetime",
    nulls: "may",
    sql: {
      duckdb: ({ args }) => fromMicros.duckdb(`TRY_CAST(round(${args[0]} ${scale}) AS BIGINT)`),
      clickhouse: ({ args }) => fromMicros.clickhouse(`accurateCastOrNull(round(${args[0]} ${scale}), 'Int64')`),
    },
    doc: `the datetime ${unit} after 1970-01-01 (UTC)`,
  });

export const DATETIME: readonly FunctionEntry[] = [
  documented("scalar", "ago", "ago(Timespan): datetime — now minus the span"),
  documented("scalar", "now", "now([Offset]): datetime — the query's current time (plus an offset)"),
  documented("scalar", "startofday", "startofday(t [, Offset]): datetime — midnight at the start of the day"),
  documented("scalar", "startofweek", "startofweek(t [, Offset]): datetime — weeks start on Sunday"),
  documented("scalar", "startofmonth", "startofmonth(t [, Offset]): datetime — the first instant of the month"),
  documented("scalar", "startofyear", "startofyear(t [, Offset]): datetime — the first instant of the year"),
  documented("scalar", "endofday", "endofday(t [, Offset]): datetime — the last instant of the day"),
  documented("scalar", "endofweek", "endofweek(t [, Offset]): datetime — the last instant of the week"),
  documented("scalar", "endofmonth", "endofmonth(t [, Offset]): datetime — the last instant of the month"),
  documented("scalar", "endofyear", "endofyear(t [, Offset]): datetime — the last instant of the year"),
  documented("scalar", "datetime_part", "datetime_part(\"Part\", t): int — year, quarter, month, week_of_year, day, dayofyear, hour, minute, second, millisecond, …"),
  documented("scalar", "hourofday", "hourofday(t): int — the hour, 0–23"),
  documented("scalar", "dayofweek", "dayofweek(t): timespan — days since Sunday"),
  documented("scalar", "dayofmonth", "dayofmonth(t): int — the day of the month, 1–31"),
  documented("scalar", "dayofyear", "dayofyear(t): int — the day of the year, 1–366"),
  documented("scalar", "monthofyear", "monthofyear(t): int — the month, 1–12"),
  documented("scalar", "getyear", "getyear(t): int — the year"),
  documented("scalar", "getmonth", "getmonth(t): int — the month, 1–12"),
  documented("scalar", "weekofyear", "weekofyear(t): int — ISO 8601 week"),
  documented("scalar", "format_datetime", "format_datetime(t, \"yyyy-MM-dd HH:mm:ss.fff\"): string — a datetime as text in the given format"),
  documented("scalar", "format_timespan", "format_timespan(ts, \"d.hh:mm:ss\"): string — a timespan as text in the given format"),
  scalar("datetime_add", {
    args: "part: const string, amount: long, datetime: datetime",
    result: "datetime",
    checkConsts: ([part]) => checkPart(part),
    sql: {
      duckdb: ({ args: [, n, x], consts: [part] }) => `(${x} + ${DUCKDB_ADD[partOf(part)]!(n!)})`,
      clickhouse: ({ args: [, n, x], consts: [part] }) => clickhouseAdd(partOf(part), n!, x!),
    },
    doc: "a datetime moved by amount periods (year, quarter, month, week, day, hour, minute, second, millisecond, microsecond, nanosecond)",
  }),
  scalar("datetime_diff", {
    args: "part: const string, datetime1: datetime, datetime2: datetime",
    result: "long",
    checkConsts: ([part]) => checkPart(part),
    sql: {
      duckdb: ({ args: [, a, b], consts: [part] }) => (partOf(part) === "nanosecond" ? `(date_diff('microsecond', ${b}, ${a}) * 1000)` : `date_diff('${partOf(part)}', ${b}, ${a})`),
      clickhouse: ({ args: [, a, b], consts: [part] }) => (partOf(part) === "nanosecond" ? `(dateDiff('microsecond', ${b}, ${a}) * 1000)` : `dateDiff('${partOf(part)}', ${b}, ${a})`),
    },
    doc: "the number of period boundaries from datetime2 to datetime1",
  }),
  unixtime("unixtime_seconds_todatetime", "* 1000000", "seconds"),
  unixtime("unixtime_milliseconds_todatetime", "* 1000", "milliseconds"),
  unixtime("unixtime_microseconds_todatetime", "* 1", "microseconds"),
  unixtime("unixtime_nanoseconds_todatetime", "/ 1000", "nanoseconds"),
  scalar("make_datetime", {
    args: ["year: long, month: long, day: long", "year: long, month: long, day: long, hour: long, minute: long", "year: long, month: long, day: long, hour: long, minute: long, second: real"],
    result: "datetime",
    nulls: "may",
    sql: {
      duckdb: ({ args: [y, mo, d, h = "0", mi = "0", s = "0"] }) => `try(make_timestamp(${y}, ${mo}, ${d}, ${h}, ${mi}, ${s}))`,
      // makeDateTime64 clamps what is out of range: the result stands only when it reads back the same.
      clickhouse: ({ args: [y, mo, d, h = "0", mi = "0", s = "0"] }) => {
        const made = `makeDateTime64(${y}, ${mo}, ${d}, ${h}, ${mi}, toUInt8(floor(${s})), toUInt32(round((${s} - floor(${s})) * 1000000)), 6, 'UTC')`;
        return `if(${mo} BETWEEN 1 AND 12 AND ${d} BETWEEN 1 AND 31 AND ${h} BETWEEN 0 AND 23 AND ${mi} BETWEEN 0 AND 59 AND ${s} >= 0 AND ${s} < 60 AND toYear(${made}) = ${y} AND toMonth(${made}) = ${mo} AND toDayOfMonth(${made}) = ${d}, ${made}, NULL)`;
      },
    },
    doc: "the datetime of a date and time of day (null when there is no such date)",
  }),
  scalar("make_timespan", {
    args: ["hour: long, minute: long", "hour: long, minute: long, second: real", "day: long, hour: long, minute: long, second: real"],
    result: "timespan",
    sql: {
      duckdb: ({ args }) => {
        const [d, h, m, s] = args.length === 4 ? args : ["0", args[0]!, args[1]!, args[2] ?? "0"];
        return `CAST(round(((((${d}) * 24 + ${h}) * 60 + ${m}) * 60 + ${s}) * 1000000) AS BIGINT)`;
      },
      clickhouse: ({ args }) => {
        const [d, h, m, s] = args.length === 4 ? args : ["0", args[0]!, args[1]!, args[2] ?? "0"];
        return `toInt64(round(((((${d}) * 24 + ${h}) * 60 + ${m}) * 60 + ${s}) * 1000000))`;
      },
    },
    doc: "the timespan of days, hours, minutes and seconds",
  }),
  scalar("week_of_year", { args: "date: datetime", result: "int", sql: { duckdb: "CAST(weekofyear($0) AS INTEGER)", clickhouse: "toInt32(toISOWeek($0))" }, doc: "the ISO 8601 week number" }),
];
