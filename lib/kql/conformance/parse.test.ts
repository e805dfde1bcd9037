/**
 * Conformance: parse's modes and parse-where (operators.ts parseOperator), with the outputs of
 * Microsoft's parse-operator and parse-where-operator pages: simple and regex modes are strict (a
 * typed column that does not convert unmatches the whole row), relaxed is not, regex mode's string
 * columns are greedy unless flags=U, the pattern's own groups do not shift the columns.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const T = `datatable(s: string) ["id=1, t=02/17/2016 08:40:01, n=ok", "id=x, t=02/17/2016 08:40:02, n=bad id", "id=3, t=never, n=bad time"]`;

describe("parse and parse-where", () => {
  conformance([
    { q: `${T} | parse s with "id=" id: long ", t=" t: datetime ", n=" n | project id, t, n`, rows: [[1,"2016-02-17T08:40:01.000Z","ok"],[null,null,""],[null,null,""]], columns: ["id","t","n"], types: ["long","datetime","string"] },
    { q: `${T} | parse-where s with "id=" id: long ", t=" t: datetime ", n=" n | project id, t, n`, rows: [[1,"2016-02-17T08:40:01.000Z","ok"]], columns: ["id","t","n"] },
    { q: `${T} | parse kind=relaxed s with "id=" id: long ", t=" t: datetime ", n=" n | project id, t, n`, rows: [[1,"2016-02-17T08:40:01.000Z","ok"],[null,"2016-02-17T08:40:02.000Z","bad id"],[3,null,"bad time"]], columns: ["id","t","n"] },
    { q: `${T} | parse-where kind=relaxed s with "id=" id: long ", t=" t: datetime ", n=" n | count`, rows: [[3]], columns: ["Count"] },
    { q: `${T} | parse-where s with "nothing" x | count`, rows: [[0]], columns: ["Count"] },
    // Regex mode: greedy strings, flags=U lazy, flags=i, the pattern's own groups skipped.
    { q: `print s = "a=1, b=2, c=3" | parse kind=regex s with "a=" x "," *`, rows: [["a=1, b=2, c=3","1, b=2"]], columns: ["s","x"] },
    { q: `print s = "a=1, b=2, c=3" | parse kind=regex flags=U s with "a=" x "," *`, rows: [["a=1, b=2, c=3","1"]], columns: ["s","x"] },
    { q: `print s = "A=1, b=2" | parse-where kind=regex flags=i s with "a=" x: long | project x`, rows: [], columns: ["x"] },
    { q: `print s = "A=1, b=2" | parse-where kind=regex flags=i s with "a=" x: long "," * | project x`, rows: [[1]], columns: ["x"] },
    { q: `print s = "key: k1 (v=7)" | parse kind=regex s with "(key|name): " k @" \\((v|w)=" v: long "\\\\)" | project k, v`, rows: [["k1",7]], columns: ["k","v"] },
    { q: `print s = "a\\nb=5" | parse kind=regex flags=s s with x "b=" n: long | project x, n`, rows: [["a\n",5]], columns: ["x","n"] },
    // The documentation's datetimes are month/day/year, as .NET reads them.
    { q: `print t = todatetime("02/17/2016 08:40:01"), d = todatetime("2/7/2016")`, rows: [["2016-02-17T08:40:01.000Z","2016-02-07T00:00:00.000Z"]], columns: ["t","d"] },
  ]);
});
