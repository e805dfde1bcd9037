/**
 * Conformance: the `evaluate` plugins spelled as operators (parser/plugins.ts) and the IP lookups
 * (plugins.ts), with the outputs of Microsoft's plugin pages and the edges they state: rows_near's
 * window before and after, bag_unpack's `*` and prefix, the lookups' unmatched rows and extra keys.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const IP_DATA = `let IP_Data = datatable(network:string, country:string) ["111.68.128.0/17","JP", "5.8.0.0/19","RU", "2.20.183.0/24","GB"];`;
const IPS = `let IPs = datatable(ip:string) ['2.20.183.12', '5.8.1.2', '192.165.12.17'];`;
const SERIES = `datatable(Ts:datetime, Value:long, State:string) [datetime(2021-06-01), 1, "ok", datetime(2021-06-02), 4, "ok", datetime(2021-06-03), 3, "Error", datetime(2021-06-04), 11, "ok", datetime(2021-06-05), 15, "ok", datetime(2021-06-06), 2, "Error"] | sort by Ts asc`;
// A 1°×1° square and the equator's first degree; "in" lies in the square 0.56 km from the equator, "near" 11 km north of the square, "far" 111 km.
const ZONES = `let Z = datatable(zone:string, shape:dynamic) ["square", dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})];`;
const ROADS = `let R = datatable(road:string, line:dynamic) ["equator", dynamic({"type":"LineString","coordinates":[[0,0],[1,0]]})];`;
const POINTS = `datatable(p:string, lon:real, lat:real) ["in", 0.5, 0.005, "near", 0.5, 1.1, "far", 0.5, 2]`;
const USERS = `datatable(User:string, Ts:datetime) ['A', datetime(2017-08-01), 'B', datetime(2017-08-01), 'A', datetime(2017-08-01), 'B', datetime(2017-08-02), 'C', datetime(2017-08-02), 'A', datetime(2017-08-04)]`;

describe("evaluate plugins", () => {
  conformance([
    // dcount-intersect-plugin#1: the page's output (50, 16, 3), and the plugin's schema: the input's columns, then s0… of type long, per row.
    {
      q: "range x from 1 to 100 step 1 | extend isEven = (x % 2 == 0), isMod3 = (x % 3 == 0), isMod5 = (x % 5 == 0) | summarize hll_even = hll(iif(isEven, x, 0), 2), hll_mod3 = hll(iif(isMod3, x, 0), 2), hll_mod5 = hll(iif(isMod5, x, 0), 2) | evaluate dcount_intersect(hll_even, hll_mod3, hll_mod5) | project evenNumbers = s0 - 1, even_and_mod3 = s1 - 1, even_and_mod3_and_mod5 = s2 - 1",
      rows: [[50, 16, 3]],
      columns: ["evenNumbers", "even_and_mod3", "even_and_mod3_and_mod5"],
      types: ["long", "long", "long"],
    },
    {
      q: "range x from 1 to 12 step 1 | summarize a = hll_if(x, x <= 6), b = hll_if(x, x % 2 == 0) by big = x > 6 | evaluate dcount_intersect(a, b) | order by big asc",
      rows: [[false, ["1", "2", "3", "4", "5", "6"], ["2", "4", "6"], 6, 3], [true, [], ["10", "12", "8"], 0, 0]],
      columns: ["big", "a", "b", "s0", "s1"],
      types: ["bool", "dynamic", "dynamic", "long", "long"],
    },
    { q: `${SERIES} | evaluate rows_near(State == "Error", 1) | project Value`, rows: [[4], [3], [11], [15], [2]] },
    { q: `${SERIES} | evaluate rows_near(State == "Error", 0, 1) | project Value`, rows: [[3], [11], [2]] },
    { q: `datatable(d:dynamic, Description:string) [dynamic({"Name":"John","Age":20}), "Student", dynamic({"Name":"Dave"}), "Teacher"] | evaluate bag_unpack(d) : (*, Name:string, Age:long)`, rows: [["Student", "John", 20], ["Teacher", "Dave", null]], columns: ["Description", "Name", "Age"], types: ["string", "string", "long"] },
    { q: `datatable(d:dynamic, k:long) [dynamic({"Name":"John"}), 1] | evaluate bag_unpack(d, 'p_') : (p_Name:string)`, rows: [["John"]], columns: ["p_Name"] },
    { q: `range idx from 0 to 24 * 4 - 1 step 1 | project Timestamp = datetime(2018-01-01) + 1h * idx, val = idx + 1 | evaluate rolling_percentile(val, 50, Timestamp, 1d, 2) | sort by Timestamp asc`, rows: [["2018-01-01T00:00:00.000Z", 12], ["2018-01-02T00:00:00.000Z", 24], ["2018-01-03T00:00:00.000Z", 48], ["2018-01-04T00:00:00.000Z", 72]], columns: ["Timestamp", "rolling_2_percentile_val_50"] },
    { q: `${USERS} | evaluate sliding_window_counts(User, Ts, datetime(2017-08-01), datetime(2017-08-05), 2d, 1d) | sort by Ts asc`, rows: [["2017-08-01T00:00:00.000Z", 3, 2], ["2017-08-02T00:00:00.000Z", 5, 3], ["2017-08-03T00:00:00.000Z", 2, 2], ["2017-08-04T00:00:00.000Z", 1, 1], ["2017-08-05T00:00:00.000Z", 1, 1]], columns: ["Ts", "Count", "Dcount"] },
    { q: `${USERS} | evaluate activity_counts_metrics(User, Ts, datetime(2017-08-01), datetime(2017-08-04), 1d)`, rows: [["2017-08-01T00:00:00.000Z", 3, 2, 2, 2], ["2017-08-02T00:00:00.000Z", 2, 2, 1, 3], ["2017-08-04T00:00:00.000Z", 1, 1, 0, 3]], columns: ["Ts", "count", "dcount", "new_dcount", "aggregated_dcount"] },
    // active_users_count: B is seen on 3 days of the 8 up to 07-04, A on 3 of the 8 up to 07-17 (and 07-20); no one in the other weeks.
    { q: `datatable(User:string, Ts:datetime) ["B", datetime(2018-06-29), "B", datetime(2018-06-30), "A", datetime(2018-07-02), "B", datetime(2018-07-04), "B", datetime(2018-07-08), "A", datetime(2018-07-10), "A", datetime(2018-07-14), "A", datetime(2018-07-17), "A", datetime(2018-07-20), "B", datetime(2018-07-24)] | evaluate active_users_count(User, Ts, datetime(2018-07-01), datetime(2018-07-31), 8d, 1d, 3, 7d) | sort by Ts asc`, rows: [["2018-07-01T00:00:00.000Z", 1], ["2018-07-15T00:00:00.000Z", 1]], columns: ["Ts", "dcount"], types: ["datetime", "long"] },
    { q: `${IP_DATA}${IPS} IPs | evaluate ipv4_lookup(IP_Data, ip, network)`, rows: [["2.20.183.12", "2.20.183.0/24", "GB"], ["5.8.1.2", "5.8.0.0/19", "RU"]], columns: ["ip", "network", "country"] },
    { q: `${IP_DATA}${IPS} IPs | evaluate ipv4_lookup(IP_Data, ip, network, return_unmatched = true)`, rows: [["2.20.183.12", "2.20.183.0/24", "GB"], ["5.8.1.2", "5.8.0.0/19", "RU"], ["192.165.12.17", "", ""]] },
    { q: `${IP_DATA} datatable(ip:string, country:string) ['2.20.183.12', 'GB', '5.8.1.2', 'SE'] | evaluate ipv4_lookup(IP_Data, ip, network, country)`, rows: [["2.20.183.12", "GB", "2.20.183.0/24"]], columns: ["ip", "country", "network"] },
    { q: `let R = datatable(network:string, c:string) ["2001:0db8:85a3::/48","US"]; datatable(ip:string) ["2001:0db8:85a3:0000:0000:8a2e:0370:7334", "a5e:f127::1"] | evaluate ipv6_lookup(R, ip, network, true)`, rows: [["2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:0db8:85a3::/48", "US"], ["a5e:f127::1", "", ""]] },
    // geo lookups (ADX): the point in the polygon, or within the radius (metres) of it or of the line; the shape column only with return_lookup_key.
    { q: `${ZONES} ${POINTS} | evaluate geo_polygon_lookup(Z, shape, lon, lat) | project p, zone`, rows: [["in", "square"]], columns: ["p", "zone"] },
    { q: `${ZONES} ${POINTS} | evaluate geo_polygon_lookup(Z, shape, lon, lat, return_unmatched = true) | project p, zone`, rows: [["in", "square"], ["near", ""], ["far", ""]] },
    { q: `${ZONES} ${POINTS} | evaluate geo_polygon_lookup(Z, shape, lon, lat, 20000, true) | project p, zone`, rows: [["in", "square"], ["near", "square"], ["far", ""]] },
    { q: `${ZONES} ${POINTS} | evaluate geo_polygon_lookup(Z, shape, lon, lat, return_lookup_key = true) | project p, t = tostring(shape.type)`, rows: [["in", "Polygon"]] },
    { q: `${ZONES} ${POINTS} | evaluate geo_polygon_lookup(Z, shape, lon, lat) | getschema | project ColumnName`, rows: [["p"], ["lon"], ["lat"], ["zone"]] },
    { q: `${ROADS} ${POINTS} | evaluate geo_line_lookup(R, line, lon, lat, 20000) | project p, road`, rows: [["in", "equator"]] },
    { q: `${ROADS} ${POINTS} | evaluate geo_line_lookup(R, line, lon, lat, radius = 500, return_unmatched = true) | project p, road`, rows: [["near", ""], ["far", ""], ["in", ""]] },
    // narrow (ADX): each cell a row — the input row's 0-based number (in its sorted order), the column's name, tostring() of the value.
    { q: "datatable(a:long, b:string, d:dynamic)[2, \"x\", dynamic({\"k\":1}), 1, \"\", dynamic([1,2])] | sort by a asc | evaluate narrow()", rows: [[0,"a","1"],[0,"b",""],[0,"d","[1,2]"],[1,"a","2"],[1,"b","x"],[1,"d","{\"k\":1}"]], columns: ["Row","Column","Value"], types: ["long","string","string"] },
    { q: "States | where DeviceId == \"D3\" | project Name, Value | sort by Name asc | evaluate narrow() | where Column == \"Value\" | project Row, Value", rows: [[0,"1"],[1,"18"]], columns: ["Row","Value"], types: ["long","string"] },
  ]);
});
