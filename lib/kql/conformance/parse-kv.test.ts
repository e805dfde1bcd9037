/**
 * Conformance: parse-kv (parse-kv.ts) with the outputs of Microsoft's parse-kv-operator page, and
 * the edges its notes state: an absent key is null ('' for a string), the first appearance wins,
 * white space around values is dropped.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("parse-kv", () => {
  conformance([
    { q: `print str="ThreadId:458745723, Machine:Node001, Text: The service is up, Level: Info" | parse-kv str as (Text: string, ThreadId:long, Machine: string) with (pair_delimiter=',', kv_delimiter=':') | project-away str`, rows: [["The service is up",458745723,"Node001"]], columns: ["Text","ThreadId","Machine"], types: ["string","long","string"] },
    { q: `print str='src=10.1.1.123 dst=10.1.1.124 bytes=125 failure="connection aborted" "event time"=2021-01-01T10:00:54' | parse-kv str as (['event time']:datetime, src:string, dst:string, bytes:long, failure:string) with (pair_delimiter=' ', kv_delimiter='=', quote='"') | project-away str`, rows: [["2021-01-01T10:00:54.000Z","10.1.1.123","10.1.1.124",125,"connection aborted"]], columns: ["event time","src","dst","bytes","failure"] },
    { q: `print str='src=10.1.1.123 dst=10.1.1.124 bytes=125 failure=(connection aborted) (event time)=(2021-01-01 10:00:54)' | parse-kv str as (['event time']:datetime, src:string, dst:string, bytes:long, failure:string) with (pair_delimiter=' ', kv_delimiter='=', quote='()') | project-away str`, rows: [["2021-01-01T10:00:54.000Z","10.1.1.123","10.1.1.124",125,"connection aborted"]] },
    { q: `print str='src=10.1.1.123 failure="the remote host sent \\\\"bye!\\\\"" time=2021-01-01T10:00:54' | parse-kv str as (['time']:datetime, src:string, failure:string) with (pair_delimiter=' ', kv_delimiter='=', quote='"', escape='\\\\') | project-away str`, rows: [["2021-01-01T10:00:54.000Z","10.1.1.123",'the remote host sent "bye!"']] },
    { q: `print str='name=John Doe phone=555 5555 city=New York' | parse-kv str as (name:string, phone:string, city:string) with (pair_delimiter=' ', kv_delimiter='=') | project-away str`, rows: [["John","555","New"]] },
    { q: `print str='name=John Doe phone=555 5555 city=New York' | parse-kv str as (name:string, phone:string, city:string) with (pair_delimiter=' ', kv_delimiter='=', greedy=true) | project-away str`, rows: [["John Doe","555 5555","New York"]] },
    { q: `print str="2021-01-01T10:00:34 [INFO] ThreadId:458745723, Machine:Node001, Text: Started" | parse-kv str as (Text: string, ThreadId:long, Machine: string) | project-away str`, rows: [["Started",458745723,"Node001"]] },
    { q: `print str="2021-01-01T10:00:34 [INFO] ThreadId:458745723, Machine:Node001, Text: 'The service \\\\' is up'" | parse-kv str as (Text: string, ThreadId:long, Machine: string) with (quote="'", escape='\\\\') | project-away str`, rows: [["The service ' is up",458745723,"Node001"]] },
    // Absent keys, the first appearance, a key that is only a suffix of another, a value that does not convert.
    { q: `print str="a=1;b=x;a=2;xa=9" | parse-kv str as (a: long, b: long, c: string, d: real) with (pair_delimiter=';', kv_delimiter='=')`, rows: [["a=1;b=x;a=2;xa=9",1,null,"",null]], columns: ["str","a","b","c","d"] },
    { q: `datatable(s: string) ["k=v1", "k=v2 j=3", ""] | parse-kv s as (k: string, j: int) with (pair_delimiter=' ', kv_delimiter='=') | project k, j`, rows: [["v1",null],["v2",3],["",null]], types: ["string","int"] },
  ]);
});
