/** Conformance: everyday scalar functions on literals (expected rows from ADX's documentation). */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("everyday scalars", () => {
  conformance([
    { q: "print strlen(\"hello\"), toupper(\"ab\"), tolower(\"AB\")", rows: [[5, "AB", "ab"]] },
    { q: "print strcat(\"a\", \"b\", \"c\"), strcat_delim(\"-\", \"a\", \"b\")", rows: [["abc", "a-b"]] },
    { q: "print substring(\"abcdef\", 1, 3), substring(\"abcdef\", 2)", rows: [["bcd", "cdef"]] },
    { q: "print indexof(\"abcdef\", \"cd\"), indexof(\"abc\", \"x\")", rows: [[2, -1]] },
    { q: "print replace_string(\"a.b.c\", \".\", \"-\")", rows: [["a-b-c"]] },
    { q: "print bin(7, 5), bin(-7, 5)", rows: [[5, -10]] },
    { q: "print datetime_add(\"day\", 1, datetime(2026-01-01))", rows: [["2026-01-02T00:00:00.000Z"]] },
    { q: "print datetime_diff(\"hour\", datetime(2026-01-01 05:00), datetime(2026-01-01))", rows: [[5]] },
    { q: "print startofmonth(datetime(2026-02-17 10:00)), endofday(datetime(2026-02-17 10:00))", rows: [["2026-02-01T00:00:00.000Z", "2026-02-17T23:59:59.999Z"]] },
    { q: "print hourofday(datetime(2026-01-01 13:45))", rows: [[13]] },
    { q: "print coalesce(long(null), 5), coalesce(\"\", \"x\")", rows: [[5, "x"]] },
    { q: "print isempty(\"\"), isnotempty(\"a\"), isempty(\"a\")", rows: [[true, true, false]] },
    { q: "print array_length(dynamic([1, 2, 3]))", rows: [[3]] },
  ]);
});
