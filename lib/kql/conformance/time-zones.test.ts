/**
 * Conformance: datetime_utc_to_local, datetime_local_to_utc and datetime_list_timezones
 * (functions/time-zones.ts) on both engines — the pages' printed outputs, then the hours a
 * daylight-saving change skips or repeats, zones from a column, unknown zones and nulls.
 */
import { describe, expect, it } from "vitest";
import { conformance, runOn } from "../../service/telemetry/testing/kql-conformance";

describe("time zones", () => {
  conformance([
    // datetime-local-to-utc-function.md's two printed tables.
    {
      q: "datatable(local_dt: datetime, tz: string) [datetime(2020-02-02 20:02:20), 'US/Pacific', datetime(2020-02-02 20:02:20), 'America/Chicago', datetime(2020-02-02 20:02:20), 'Europe/Paris'] | extend utc_dt = datetime_local_to_utc(local_dt, tz)",
      rows: [["2020-02-02T20:02:20.000Z", "Europe/Paris", "2020-02-02T19:02:20.000Z"], ["2020-02-02T20:02:20.000Z", "America/Chicago", "2020-02-03T02:02:20.000Z"], ["2020-02-02T20:02:20.000Z", "US/Pacific", "2020-02-03T04:02:20.000Z"]],
      types: ["datetime", "string", "datetime"],
      knownGap: { clickhouse: "ClickHouse takes a time zone only as a constant: a zone from a column is refused (refusals below)" },
    },
    {
      q: "range Local from datetime(2022-03-27 01:00:00.0000000) to datetime(2022-03-27 04:00:00.0000000) step 1h | extend UTC = datetime_local_to_utc(Local, 'Europe/Brussels') | extend BackToLocal = datetime_utc_to_local(UTC, 'Europe/Brussels') | extend diff = Local - BackToLocal",
      rows: [
        ["2022-03-27T01:00:00.000Z", "2022-03-27T00:00:00.000Z", "2022-03-27T01:00:00.000Z", "00:00:00"],
        ["2022-03-27T02:00:00.000Z", "2022-03-27T00:00:00.000Z", "2022-03-27T01:00:00.000Z", "01:00:00"],
        ["2022-03-27T03:00:00.000Z", "2022-03-27T01:00:00.000Z", "2022-03-27T03:00:00.000Z", "00:00:00"],
        ["2022-03-27T04:00:00.000Z", "2022-03-27T02:00:00.000Z", "2022-03-27T04:00:00.000Z", "00:00:00"],
      ],
    },
    // A repeated hour is read as standard time (the later instant); a skipped one with the offset after the change; zones from a column, one unknown (ClickHouse: refused, below).
    {
      q: "datatable(L: datetime, tz: string) [datetime(2022-10-30 02:30), 'Europe/Brussels', datetime(2022-11-06 01:30), 'US/Pacific', datetime(2022-03-13 02:30), 'America/New_York', datetime(2022-07-01 12:00:00.123456), 'Asia/Kolkata', datetime(2022-01-01), 'Mars/Olympus'] | extend u = datetime_local_to_utc(L, tz), l = datetime_utc_to_local(L, tz)",
      rows: [
        ["2022-10-30T02:30:00.000Z", "Europe/Brussels", "2022-10-30T01:30:00.000Z", "2022-10-30T03:30:00.000Z"],
        ["2022-11-06T01:30:00.000Z", "US/Pacific", "2022-11-06T09:30:00.000Z", "2022-11-05T18:30:00.000Z"],
        ["2022-03-13T02:30:00.000Z", "America/New_York", "2022-03-13T06:30:00.000Z", "2022-03-12T21:30:00.000Z"],
        ["2022-07-01T12:00:00.123Z", "Asia/Kolkata", "2022-07-01T06:30:00.123Z", "2022-07-01T17:30:00.123Z"],
        ["2022-01-01T00:00:00.000Z", "Mars/Olympus", null, null],
      ],
      knownGap: { clickhouse: "ClickHouse takes a time zone only as a constant: a zone from a column is refused (refusals below)" },
    },
    // Round trips through a skipped and a repeated hour.
    { q: "print datetime_utc_to_local(datetime_local_to_utc(datetime(2022-10-30 02:30), 'Europe/Brussels'), 'Europe/Brussels'), datetime_utc_to_local(datetime_local_to_utc(datetime(2022-03-13 02:30), 'America/New_York'), 'America/New_York')", rows: [["2022-10-30T02:30:00.000Z", "2022-03-13T01:30:00.000Z"]] },
    { q: "print datetime_utc_to_local(datetime(2022-10-30 00:30), 'Europe/Brussels'), datetime_utc_to_local(datetime(2022-10-30 01:30), 'Europe/Brussels'), datetime_utc_to_local(datetime(null), 'UTC'), datetime_local_to_utc(datetime(2020-01-01), 'Bad/Zone'), datetime_utc_to_local(datetime(2020-01-01), '')", rows: [["2022-10-30T02:30:00.000Z", "2022-10-30T02:30:00.000Z", null, null, null]] },
    { q: "print n = array_length(datetime_list_timezones()), has = set_has_element(datetime_list_timezones(), 'UTC'), first_zone = tostring(datetime_list_timezones()[0])", rows: [[597, true, "Africa/Abidjan"]] },
  ]);
  it("ClickHouse refuses a zone from a column, naming the function and what it needs", async () => {
    await expect(runOn("clickhouse", "datatable(L: datetime, tz: string) [datetime(2022-01-01), 'UTC'] | extend u = datetime_local_to_utc(L, tz)")).rejects.toThrow(/datetime_local_to_utc\(\) on the ClickHouse engine needs the time zone as a literal/);
  });
});
