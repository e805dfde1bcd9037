/** KQL's datetime functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

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
  documented("scalar", "datetime_add", "datetime_add(\"Part\", Amount, t): datetime — a datetime moved by Amount periods"),
  documented("scalar", "datetime_diff", "datetime_diff(\"Part\", t1, t2): long — periods from t2 to t1"),
];
