/** Conformance: math and conversions (expected rows checked against ADX's documented semantics). */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("math and conversions", () => {
  conformance([
    { q: "print abs(-3), abs(2.5), pow(2, 10), pow(4, 0.5), sqrt(16), log(exp(2))", rows: [[3,2.5,1024,2,4,2]], columns: ["print_0","print_1","print_2","print_3","print_4","print_5"], types: ["long","real","real","real","real","real"] },
    { q: "print exp(0), exp2(3), exp10(2), log10(1000), log2(8), log10(-1)", rows: [[1,8,100,3,3,null]], columns: ["print_0","print_1","print_2","print_3","print_4","print_5"], types: ["real","real","real","real","real","real"] },
    { q: "print round(2.567, 2), round(2.4), round(-2.567, 1), round(1234.5, -2)", rows: [[2.57,2,-2.6,1200]], columns: ["print_0","print_1","print_2","print_3"], types: ["real","real","real","real"] },
    { q: "print max_of(1, 5, 3), min_of(1, 5, 3), max_of(2.5, 1), min_of(datetime(2026-01-01), datetime(2025-01-01)), max_of(long(null), 4)", rows: [[5,1,2.5,"2025-01-01T00:00:00.000Z",4]], columns: ["print_0","print_1","print_2","print_3","print_4"], types: ["long","long","real","datetime","long"] },
    { q: "States | where DeviceId == \"D2\" | project m = max_of(todouble(Value), 10.0) | order by m asc", rows: [[10],[10],[30]], columns: ["m"], types: ["real"] },
    { q: "print sign(-4), sign(0), sign(2.5), ceiling(1.2), ceiling(-1.2)", rows: [[-1,0,1,2,-1]], columns: ["print_0","print_1","print_2","print_3","print_4"], types: ["real","real","real","real","real"] },
    { q: "print isnan(0.0 / 1), isfinite(1.0), isfinite(1.0 / 0)", rows: [[false,true,false]], columns: ["print_0","print_1","print_2"], types: ["bool","bool","bool"] },
    { q: "print hash(\"a\") == hash(\"a\"), hash(\"a\", 10) >= 0 and hash(\"a\", 10) < 10", rows: [[true,true]], columns: ["print_0","print_1"], types: ["bool","bool"] },
    { q: "States | summarize count() by bucket = hash(DeviceId, 3) | summarize sum(count_)", rows: [[12]], columns: ["sum_count_"], types: ["long"] },
    { q: "print tobool(\"true\"), tobool(\"FALSE\"), tobool(1), tobool(0), tobool(\"x\")", rows: [[true,false,true,false,null]], columns: ["print_0","print_1","print_2","print_3","print_4"], types: ["bool","bool","bool","bool","bool"] },
    { q: "print 7 / 2, 7 % 3, -7 / 2, 7.0 / 2, 1h / 30m, 1h * 2", rows: [[3,1,-3,3.5,2,"02:00:00"]], columns: ["print_0","print_1","print_2","print_3","print_4","print_5"], types: ["long","long","long","real","real","timespan"] },
    // ADX's modulo is never negative: 0 <= N % D < abs(D) (numerical-operators.md's printed row, then reals, int, null, zero).
    { q: "print plusPlus = 14 % 12, minusPlus = -14 % 12, plusMinus = 14 % -12, minusMinus = -14 % -12", rows: [[2, 10, 2, 10]], types: ["long", "long", "long", "long"] },
    { q: "print -14.5 % 12.0, -14.5 % -12.0, int(-7) % int(3), long(null) % 3, 5 % 0, -12 % 12", rows: [[9.5, 9.5, 2, null, null, 0]], types: ["real", "real", "long", "long", "long", "long"] },
    // Comparisons with null (null-values.md's printed table): == / != of two nulls is null, of one null false / true; an ordering is null.
    {
      q: "datatable(val:int)[5, int(null)] | extend IsBiggerThan3 = val > 3 | extend IsBiggerThan3OrNull = val > 3 or isnull(val) | extend IsEqualToNull = val == int(null) | extend IsNotEqualToNull = val != int(null) | extend Eq5 = val == 5, Ne5 = val != 5, NotBigger = not(val > 3)",
      rows: [[5, true, true, false, true, true, false, false], [null, null, true, null, null, false, true, null]],
    },
    { q: "datatable(ival:int, sval:string)[5, \"a\", int(null), \"b\"] | where ival != 5", rows: [[null, "b"]] },
    { q: "datatable(ival:int, sval:string)[5, \"a\", int(null), \"b\", int(null), \"c\"] | where ival == int(null) or not(ival < 3) | project sval", rows: [["a"]] },
    { q: "print iff(int(null) > 3, 1, 2), datetime(null) < datetime(2020-01-01), real(null) == real(null), 1h != timespan(null)", rows: [[2, null, null, true]] },
  ]);
});
