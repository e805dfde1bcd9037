/**
 * Every refusal is a KqlError (400 INVALID_QUERY) that names the construct and points at it, as
 * the editor shows it too (diagnose()).
 */
import { describe, expect, it } from "vitest";
import { compileKql } from "../compile";
import { diagnose } from "../diagnose";
import { KqlError } from "../errors";
import { unscopedSources } from "../../service/telemetry/testing/duckdb.test-support";

const cases: [string, number, number, RegExp][] = [
  ["States | mv-apply x = DataMetadata on (getschema)", 1, 40, /'getschema' is not supported inside mv-apply/],
  ["States | partition by Name (union Events)", 1, 29, /'union' is not supported inside partition/],
  ["States | evaluate bag_unpack(DataMetadata)", 1, 19, /bag_unpack\(\) needs its output schema here/],
  ["States | evaluate narrow(1)", 1, 26, /narrow\(\) takes no arguments/],
  ["let IP_Data = external_data(network:string, geoname_id:long) ['https://example.com/ip.csv'];\nIP_Data", 1, 15, /'external_data' is refused: it reads storage outside the service/],
  ["externaldata (x:long) [h@'https://example.com/x.csv'] | take 1", 1, 1, /'externaldata' is refused: it reads storage outside the service/],
  ["inline_external_table(x:long) kind=storage dataformat=parquet (h@'https://example.com/x.parquet') | take 1", 1, 1, /'inline_external_table' is refused: it reads storage outside the service/],
  ["States | summarize h = hll(Value) | evaluate dcount_intersect(h)", 1, 46, /dcount_intersect\(\) takes 2 to 16 arguments, not 1/],
  ["States | evaluate geo_line_lookup(States, Name, Value, Value)", 1, 19, /geo_line_lookup\(\) needs a radius in metres/],
  ["States | evaluate geo_polygon_lookup(States, Name, Value, Value, return_unmatched = 1)", 1, 66, /geo_polygon_lookup\(\)'s return_unmatched must be true or false/],
  ["States | evaluate http_request_post(\"https://example.com\")", 1, 19, /Plugin 'http_request_post' is refused: it sends an HTTP request out of the service/],
  ["evaluate sql_request(\"Server=x\", \"select 1\")", 1, 10, /Plugin 'sql_request' is refused: it queries a database outside the service/],
  ["States | evaluate hint.distribution = per_node python(typeof(*), \"result = df\")", 1, 48, /Plugin 'python' is refused: it runs code written in the query/],
  ["States | evaluate ai_chat_completion(\"x\", \"y\")", 1, 19, /Plugin 'ai_chat_completion' is refused: it calls an AI service/],
  ["evaluate execute_show_command(\"c\", \".show tables\")", 1, 10, /Plugin 'execute_show_command' is refused: it runs another query or a management command/],
  ["States\n| make-graph DeviceId --> Name with Events on DeviceId", 2, 55, /make-graph gives a graph: follow it with graph-match, graph-shortest-paths or graph-to-table/],
  ["States | graph-match (a)-->(b) project a.Name", 1, 10, /'graph-match' reads a graph: write make-graph before it/],
  ["States | make-graph DeviceId --> Name with_node_id=Id | graph-match (a)-[e*1..9]->(b) project a.Id", 1, 72, /A variable-length edge may have at most 8 edges/],
  ["States | make-graph DeviceId --> Name with_node_id=Id | graph-match (a)-[e*1..3]->(b) project e.Id", 1, 95, /'e' is a variable-length edge: read its edges with map\(\), all\(\) or any\(\)/],
  ["States | scan with (step s output=last: true;)", 1, 35, /scan's output=last is not supported/],
  ["States | top-hitters 3 of Name", 1, 10, /'top-hitters' is not supported/],
  ["States | parse flags=i Name with a \"-\" b", 1, 22, /parse flags= needs kind=regex/],
  ["States | parse kind=regex flags=x Name with a \"-\" b", 1, 33, /parse flags must be of i, m, s and U, not 'x'/],
  ["States | extend p = prev(Name)", 1, 21, /Function 'prev' cannot be invoked in current context\. Details: the row set must be serialized/],
  ["States | summarize count() by Name | extend r = row_number()", 1, 49, /Function 'row_number' cannot be invoked in current context/],
  ["States | extend s = row_window_session(Timestamp, 1h, 5m)", 1, 21, /Function 'row_window_session' cannot be invoked in current context\. Details: the row set must be serialized/],
  ["States | serialize | extend s = row_window_session(Name, 1h, 5m)", 1, 52, /row_window_session\(\) needs a datetime as argument 1 \(Expr\), not string/],
  ["States | serialize | extend s = row_window_session(Timestamp, 5, 5m)", 1, 63, /needs a timespan as argument 2 \(MaxDistanceFromFirst\), not long/],
  ["States | serialize | extend s = row_window_session(Timestamp, 1h, \"5m\")", 1, 67, /needs a timespan as argument 3 \(MaxDistanceBetweenNeighbors\), not string/],
  ["States | serialize | extend s = row_window_session(Timestamp, 1h, 5m, 1)", 1, 71, /needs a bool as argument 4 \(Restart\), not long/],
  ["States | serialize | extend s = row_window_session(Timestamp, 1h)", 1, 33, /row_window_session\(\) expects 3 to 4 arguments, got 2/],
  ["States | serialize | where row_window_session(Timestamp, 1h, 5m) == Timestamp", 1, 28, /row_window_session\(\) is supported in extend, project and serialize/],
  ["States | serialize | extend s = row_window_session(row_window_session(Timestamp, 1h, 5m), 1h, 5m)", 1, 52, /row_window_session\(\) is supported in extend, project and serialize \(not inside its own arguments\)/],
  ["States | fork (take 1)", 1, 10, /'fork' is not supported/],
  // Both engines gave a 5xx (a SELECT without columns); ADX's result also needs a column.
  ["print a = 1, b = 2 | project-away a, b", 1, 22, /'project-away' leaves no columns; a result needs at least one/],
  ["States | project-keep Nope*", 1, 10, /'project-keep' leaves no columns/],
  ["print a = 1 | project-away a | as T | count", 1, 15, /'project-away' leaves no columns/],
  ["States | project-by-names \"Nope*\"", 1, 10, /project-by-names names no column of its input/],
  ["States | project-by-names 5", 1, 27, /project-by-names takes constant column names/],
  ["set query_language = sql; States | take 1", 1, 5, /The request option 'query_language' is not supported in a set statement/],
  ["set query_now = 5; States | take 1", 1, 1, /set query_now needs a datetime literal/],
  ["declare query_parameters(x:long = \"a\"); States | take 1", 1, 26, /Query parameter 'x' is declared long, its default is string/],
  ["declare query_parameters(x:dynamic = dynamic([1])); States | take 1", 1, 38, /A query parameter of type dynamic cannot have a default value/],
  ["alias database d = cluster(\"c\").database(\"e\"); States | take 1", 1, 1, /'alias' statements are not supported/],
  ["declare pattern p; p(\"x\")", 1, 20, /Pattern 'p' has no definitions here/],
  ["declare pattern p = (a:string) { (\"x\") = { print v = 1 }; }; p(\"y\")", 1, 62, /No definition of pattern 'p' matches \("y"\)/],
  ["States | extend s = series_outliers(dynamic([1, 2]), \"fancy\")", 1, 54, /the kind 'ctukey' or 'tukey'/],
  ["States | extend series_decompose(dynamic([1, 2]), -1, \"cubic\")", 1, 55, /the trend 'avg', 'linefit' or 'none'/],
  ["States | extend s = strlen(tostring(series_fit_line(dynamic([1, 2]))))", 1, 37, /series_fit_line\(\) yields several columns/],
  ["States | join kind=fancy (Events) on DeviceId", 1, 20, /Unknown join kind 'fancy'/],
  ["States | join kind=constructor (Events) on DeviceId", 1, 20, /Unknown join kind 'constructor'/],
  ["States | lookup kind=fullouter (Events) on DeviceId", 1, 22, /lookup supports kind=leftouter or kind=inner/],
  ["States | join (Events) on Missing", 1, 27, /Unknown column 'Missing' on the left side/],
  ["States | summarize count() by DataMetadata.Area", 1, 31, /^Summarize group key 'DataMetadata_Area' is of a 'dynamic' type\. Please use an explicit cast \(for example, 'summarize \.\.\. by tostring\(DataMetadata_Area\)'\) as grouping by a 'dynamic' type is not supported\.$/],
  ["States\n| summarize max(Timestamp) by DeviceId, v = Value", 2, 45, /Summarize group key 'v' is of a 'dynamic' type\. Please use an explicit cast \(for example, 'summarize \.\.\. by tostring\(v\)'\)/],
  ["print x = \"a\" | project (a, b) = strlen(x)", 1, 25, /Naming several columns with \(a, b\) = … needs a function with several results/],
  ["print y = dynamic([1, 2]) | project (a, b, c, d, e, f, g) = series_fit_line(y)", 1, 37, /series_fit_line\(\) gives 6 columns/],
  ["States | where * !has \"x\"", 1, 18, /'\* !has' is not supported; write not\(\* has …\)/],
  ["States | search in (Events) \"x\"", 1, 17, /search in \(…\) reads tables of its own: use it at the start of a query/],
  ["search kind=fuzzy \"x\"", 1, 13, /search kind must be default, case_insensitive or case_sensitive, not 'fuzzy'/],
  ["search in (Alarms) \"x\"", 1, 12, /Unknown table 'Alarms'/],
  ["print y = dynamic([1, 2, 3, 4]) | extend f = series_fit_2lines_dynamic(y).line_fit", 1, 46, /series_fit_2lines_dynamic\(\) must be a whole extend or project item/],
  ["States | join (Events) on Value", 1, 27, /Join keys of type dynamic are not supported/],
  ["States | join (Events) on $left.Name == $right.StartTime", 1, 27, /Join keys have different types: string and datetime/],
  ["States | make-series count() on Name step 1h", 1, 33, /datetime, timespan or numeric axis/],
  ["States | make-series make_list(Name) on Timestamp step 1h", 1, 22, /numeric results/],
  ["States | make-series kind=full count() on Timestamp step 1h", 1, 27, /make-series kind must be nonempty, not 'full'/],
  ["States | make-series count() on Timestamp in ranges(ago(1d), now(), 1h)", 1, 46, /Expected range\(start, stop, step\) after 'in'/],
  ["States | top-nested 2 of Name with others = 0 by count()", 1, 45, /top-nested's others value must be a string like its key, not long/],
  ["States | mv-expand Name", 1, 20, /needs a dynamic array or property bag, not string/],
  ["States | parse kind=relaxed2 Name with a", 1, 21, /parse kind must be simple, regex or relaxed/],
  ["let f = (T:(Nope:long)) { T | take 1 }; f(States)", 1, 41, /The table passed as 'T' needs a column 'Nope' of type long/],
  ["let f = (T:(Value:string)) { T | take 1 }; States | invoke f()", 1, 60, /needs a column 'Value' of type string, not dynamic/],
  ["let f = (n:long) { States | take n }; States | invoke f(1)", 1, 55, /invoke needs a tabular function whose first parameter is a table/],
  ["let f = (T:(*)) { T | take 1 }; f()", 1, 33, /The function takes 1 table, got 0/],
  ["let x = 1; x | take 1", 1, 12, /'x' is not a table/],
  ["let T = States; print T", 1, 23, /'T' is a table, not a value/],
  ["print x = extract_all(\"(a)(b)\", \"ab\")", 1, 23, /several capture groups/],
  ["print x = format_datetime(now(), \"yyyy-QQ\")", 1, 34, /does not support the format specifier 'Q'/],
  ["print x = datetime_part(\"fortnight\", now())", 1, 25, /Unknown datetime part 'fortnight'/],
  ["States | where Name matches regex \"(\"", 1, 35, /Invalid regular expression/],
  ["union kind=middle States, Events", 1, 12, /union kind must be inner or outer/],
  ["States | union Stats", 1, 16, /Unknown table 'Stats'/],
  ["union isfuzzy=true Alarms, Stats", 1, 1, /None of the union's tables exists/],
  ["print x = decimal(null)", 1, 11, /decimal type is not supported/],
  ["let a = 1; let a = 2; print a", 1, 16, /'a' has already been declared/],
  ["States | join (Events) on $right.DeviceId == $left.DeviceId", 1, 27, /\$left\.column == \$right\.column/],
];

describe("refusals name the construct, with line and column", () => {
  for (const [query, line, column, message] of cases) {
    it(JSON.stringify(query), () => {
      let error: unknown;
      try {
        compileKql(query, { sources: unscopedSources() });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KqlError);
      const kql = error as KqlError;
      expect(kql.detail).toMatch(message);
      expect({ line: kql.line, column: kql.column }).toEqual({ line, column });
      // The editor marks the same place with the same message.
      expect(diagnose(query)[0]).toMatchObject({ line, column, message: kql.detail });
    });
  }
});
