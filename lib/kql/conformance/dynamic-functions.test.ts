/**
 * Conformance: the dynamic-array functions of lib/kql/functions/dynamic.ts on both engines, with the
 * outputs Microsoft's documentation prints for them (also in the docs ratchet) and the edges it
 * leaves out: indexes past the ends, empty arrays, a value that is not an array (null, as in ADX).
 */
import { describe, expect, it } from "vitest";
import { evaluationError } from "@/lib/service/telemetry/duckdb/errors";
import { clickhouseQueryError } from "@/lib/service/telemetry/clickhouse/errors";
import { conformance, ENGINES, runOn } from "../../service/telemetry/testing/kql-conformance";

describe("array_slice", () => {
  conformance([
    { q: "print arr = dynamic([1,2,3]) | extend sliced = array_slice(arr, 1, 2)", rows: [[[1, 2, 3], [2, 3]]], types: ["dynamic", "dynamic"] },
    { q: "print a = array_slice(dynamic([1,2,3,4,5]), 2, -1), b = array_slice(dynamic([1,2,3,4,5]), -3, -2)", rows: [[[3, 4, 5], [3, 4]]] },
    { q: "print past = array_slice(dynamic([1,2,3]), 1, 10), before = array_slice(dynamic([1,2,3]), -10, 0), empty = array_slice(dynamic([1,2,3]), 2, 1), none = array_slice(dynamic([]), 0, 3)", rows: [[[2, 3], [1], [], []]] },
    { q: "print s = array_slice(dynamic(['a', {'b': 1}, [2]]), 1, 2), notarray = array_slice(parse_json('{\"a\": 1}'), 0, 1)", rows: [[[{ b: 1 }, [2]], null]] },
  ]);
});

describe("array_rotate_left / array_rotate_right", () => {
  conformance([
    { q: "print l = array_rotate_left(dynamic([1,2,3,4,5]), 2), ln = array_rotate_left(dynamic([1,2,3,4,5]), -2)", rows: [[[3, 4, 5, 1, 2], [4, 5, 1, 2, 3]]] },
    { q: "print r = array_rotate_right(dynamic([1,2,3,4,5]), 2), rn = array_rotate_right(dynamic([1,2,3,4,5]), -2)", rows: [[[4, 5, 1, 2, 3], [3, 4, 5, 1, 2]]] },
    { q: "print wrap = array_rotate_left(dynamic(['a','b','c']), 7), zero = array_rotate_right(dynamic([1,2]), 0), empty = array_rotate_left(dynamic([]), 3), notarray = array_rotate_left(parse_json('5'), 1)", rows: [[["b", "c", "a"], [1, 2], [], null]] },
  ]);
});

describe("array_shift_left / array_shift_right", () => {
  conformance([
    { q: "print a = array_shift_left(dynamic([1,2,3,4,5]), 2), b = array_shift_left(dynamic([1,2,3,4,5]), 2, -1), c = array_shift_left(dynamic([1,2,3,4,5]), -2, -1)", rows: [[[3, 4, 5, null, null], [3, 4, 5, -1, -1], [-1, -1, 1, 2, 3]]] },
    { q: "print a = array_shift_right(dynamic([1,2,3,4,5]), 2), b = array_shift_right(dynamic([1,2,3,4,5]), 2, -1), c = array_shift_right(dynamic([1,2,3,4,5]), -2, -1)", rows: [[[null, null, 1, 2, 3], [-1, -1, 1, 2, 3], [3, 4, 5, -1, -1]]] },
    { q: "print all = array_shift_left(dynamic(['a','b']), 5, 'z'), zero = array_shift_right(dynamic([1,2]), 0), empty = array_shift_left(dynamic([]), 1), notarray = array_shift_right(parse_json('7'), 1)", rows: [[["z", "z"], [1, 2], [], null]] },
  ]);
});

describe("set_has_element", () => {
  conformance([
    { q: 'print arr = dynamic(["this", "is", "an", "example"]) | project Result = set_has_element(arr, "example")', rows: [[true]], types: ["bool"] },
    { q: "print n = set_has_element(dynamic([1, 2, 3]), 2), absent = set_has_element(dynamic([1, 2, 3]), 4), s = set_has_element(dynamic(['1']), 1), notarray = set_has_element(parse_json('{}'), 1)", rows: [[true, false, false, null]] },
  ]);
});

describe("range()", () => {
  conformance([
    { q: "print r = range(1, 8, 3)", rows: [[[1, 4, 7]]], types: ["dynamic"] },
    { q: "print a = range(1, 3), down = range(5, 1, -2), none = range(5, 1), reals = range(0.5, 2, 0.5), zero = range(1, 5, 0)", rows: [[[1, 2, 3], [5, 3, 1], [], [0.5, 1, 1.5, 2], null]] },
    { q: "print n = array_length(range(1, 100000))", rows: [[100000]] },
    // Over datetimes (a timespan step, 1h by default); the page's example gives 365 days of 2007.
    { q: "print r = range(datetime(2007-01-01), datetime(2007-01-03), 1d), h = range(datetime(2007-01-01 22:00), datetime(2007-01-02 00:30)), n = array_length(range(datetime(2007-01-01), datetime(2007-12-31), 1d)), e = range(datetime(2007-01-02), datetime(2007-01-01), 1d)", rows: [[["2007-01-01T00:00:00.0000000Z", "2007-01-02T00:00:00.0000000Z", "2007-01-03T00:00:00.0000000Z"], ["2007-01-01T22:00:00.0000000Z", "2007-01-01T23:00:00.0000000Z", "2007-01-02T00:00:00.0000000Z"], 365, []]] },
    { q: "print r = range(datetime(2020-01-01), datetime(2020-01-01 00:01), 30s) | mv-expand r to typeof(datetime)", rows: [["2020-01-01T00:00:00.000Z"], ["2020-01-01T00:00:30.000Z"], ["2020-01-01T00:01:00.000Z"]] },
  ]);
});

describe("range() longer than the list limit is refused before it is built (ADX would cap it at 1,048,576)", () => {
  const queries = ["print r = range(1, 1000000000) | mv-expand r | count", "range i from 100001 to 100001 step 1 | project n = array_length(range(1, i))"];
  for (const q of queries) {
    for (const engine of ENGINES) {
      it(`${q} (${engine})`, async () => {
        const refusal = await runOn(engine, q).then(
          () => undefined,
          (error: unknown) => (engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error)),
        );
        expect(refusal?.code).toBe("INVALID_QUERY");
        expect(refusal?.message).toMatch(/range would build a list longer than the limit of 100,000 elements/);
      });
    }
  }
});

describe("zip", () => {
  conformance([
    { q: "print zip(dynamic([1,3,5]), dynamic([2,4,6]))", rows: [[[[1, 2], [3, 4], [5, 6]]]], types: ["dynamic"] },
    { q: 'print zip(dynamic(["A", 1, 1.5]), dynamic([{}, "B"]))', rows: [[[["A", {}], [1, "B"], [1.5, null]]]] },
    { q: 'datatable(a:int, b:string) [1,"one",2,"two",3,"three"] | summarize a = make_list(a), b = make_list(b) | project z = zip(a, b)', rows: [[[[1, "one"], [2, "two"], [3, "three"]]]] },
    { q: "print three = zip(dynamic([1]), dynamic([]), dynamic(['x', 'y'])), notarray = zip(dynamic([1]), parse_json('2'))", rows: [[[[1, null, "x"], [null, null, "y"]], null]] },
  ]);
});

describe("bag_has_key", () => {
  conformance([
    { q: "datatable(input: dynamic) [dynamic({'key1' : 123, 'key2': 'abc'}), dynamic({'key1' : 123, 'key3': 'abc'})] | extend result = bag_has_key(input, 'key2')", rows: [[{ key1: 123, key2: "abc" }, true], [{ key1: 123, key3: "abc" }, false]] },
    { q: "datatable(input: dynamic) [dynamic({'key1': 123, 'key2': {'prop1' : 'abc', 'prop2': 'xyz'}, 'key3': [100, 200]})] | project a = bag_has_key(input, '$.key2.prop1'), b = bag_has_key(input, '$.key3.prop1'), c = bag_has_key(input, 'prop1')", rows: [[true, false, false]] },
    { q: "print nokey = bag_has_key(parse_json('[1]'), 'a'), nothing = bag_has_key(parse_json(''), 'a'), nullvalue = bag_has_key(parse_json('{\"a\": null}'), 'a')", rows: [[false, false, true]] },
  ]);
});

describe("set_union / set_intersect / set_difference / set_equals / jaccard_index", () => {
  // The docs example's input written out in each query: microsoft-reference.test.ts reads the `q:` texts of this file.
  conformance([
    { q: `range x from 1 to 3 step 1 | extend y = x * 2 | extend z = y * 2 | extend w = z * 2 | extend a1 = pack_array(x,y,x,z), a2 = pack_array(x, y), a3 = pack_array(w) | project a1, a2, a3, Out = set_union(a1, a2, a3)`, rows: [[[1, 2, 1, 4], [1, 2], [8], [1, 2, 4, 8]], [[2, 4, 2, 8], [2, 4], [16], [2, 4, 8, 16]], [[3, 6, 3, 12], [3, 6], [24], [3, 6, 12, 24]]] },
    { q: "datatable (Arr1: dynamic) [dynamic(['A4', 'A2', 'A7', 'A2']), dynamic(['C4', 'C7', 'C1', 'C4'])] | extend Out = set_union(Arr1, Arr1)", rows: [[["A4", "A2", "A7", "A2"], ["A4", "A2", "A7"]], [["C4", "C7", "C1", "C4"], ["C4", "C7", "C1"]]] },
    { q: `range x from 1 to 3 step 1 | extend y = x * 2 | extend z = y * 2 | extend w = z * 2 | extend a1 = pack_array(x,y,x,z), a2 = pack_array(x, y), a3 = pack_array(w,x) | project i = set_intersect(a1, a2, a3)`, rows: [[[1]], [[2]], [[3]]] },
    { q: `range x from 1 to 3 step 1 | extend y = x * 2 | extend z = y * 2 | extend w = z * 2 | extend a1 = pack_array(x,y,x,z), a2 = pack_array(x, y), a3 = pack_array(x,y,w) | project d = set_difference(a1, a2, a3)`, rows: [[[4]], [[8]], [[12]]] },
    { q: "print d = set_difference(dynamic([1,2,3]), dynamic([1,2,3])), i = set_intersect(dynamic([1, 2, 3]), dynamic([4,5])), u = set_union(dynamic([]), dynamic(['b', 'a', 'b']))", rows: [[[], [], ["b", "a"]]] },
    { q: "print same = set_equals(dynamic([1, 2, 3]), dynamic([3, 2, 1, 1])), other = set_equals(dynamic([1, 2]), dynamic([1, 2, 3])), strings = set_equals(dynamic([1]), dynamic(['1']))", rows: [[true, false, false]] },
    { q: "print set1 = dynamic([1,2,3]), set2 = dynamic([1,2,3,4]) | extend jaccard = jaccard_index(set1, set2)", rows: [[[1, 2, 3], [1, 2, 3, 4], 0.75]] },
    { q: "print j = jaccard_index(dynamic([1, 1, 2]), dynamic([2, 3])), none = jaccard_index(dynamic(['a']), dynamic(['b'])), empty = jaccard_index(dynamic([]), dynamic([]))", rows: [[1 / 3, 0, null]] },
  ]);
});

describe("bag_merge", () => {
  conformance([
    { q: "print result = bag_merge(dynamic({'A1':12, 'B1':2, 'C1':3}), dynamic({'A2':81, 'B2':82, 'A1':1}))", rows: [[{ A1: 12, B1: 2, C1: 3, A2: 81, B2: 82 }]], types: ["dynamic"] },
    { q: "print three = bag_merge(dynamic({'a': {'x': 1}}), dynamic({'a': 2, 'b': [1, 'z']}), dynamic({'c': null})), notbag = bag_merge(dynamic({'a': 1}), parse_json('[1]'))", rows: [[{ a: { x: 1 }, b: [1, "z"], c: null }, null]] },
  ]);
});

describe("array_iff", () => {
  conformance([
    { q: "print condition=dynamic([true,false,true]), if_true=dynamic([1,2,3]), if_false=dynamic([4,5,6]) | extend res= array_iff(condition, if_true, if_false)", rows: [[[true, false, true], [1, 2, 3], [4, 5, 6], [1, 5, 3]]] },
    { q: 'print condition=dynamic([1,0,50]), if_true="yes", if_false="no" | extend res= array_iff(condition, if_true, if_false)', rows: [[[1, 0, 50], "yes", "no", ["yes", "no", "yes"]]] },
    { q: "print condition=dynamic([true,true,true]), if_true=dynamic([1,2]), if_false=dynamic([3,4]) | extend res= array_iff(condition, if_true, if_false)", rows: [[[true, true, true], [1, 2], [3, 4], [1, 2, null]]] },
    { q: "print res = array_iff(dynamic(['text', null, 2.5, false]), 1, 0)", rows: [[[null, null, 1, 0]]] },
  ]);
});

describe("array_index_of", () => {
  conformance([
    {
      q: 'let arr=dynamic(["this", "is", "an", "example", "an", "example"]); print idx1 = array_index_of(arr,"an"), idx2 = array_index_of(arr,"example",1,3), idx3 = array_index_of(arr,"example",1,2), idx4 = array_index_of(arr,"is",2,4), idx5 = array_index_of(arr,"example",2,-1), idx6 = array_index_of(arr, "an", 1, -1, 2), idx7 = array_index_of(arr, "an", 1, -1, 3), idx8 = array_index_of(arr, "an", -3), idx9 = array_index_of(arr, "is", -4)',
      rows: [[2, 3, -1, -1, 3, 4, -1, 4, -1]],
      types: ["long", "long", "long", "long", "long", "long", "long", "long", "long"],
    },
    { q: "print n = array_index_of(dynamic([1, 2, 3]), 3), s = array_index_of(dynamic([1, 2, 3]), '3'), past = array_index_of(dynamic([1, 2]), 1, 5), notarray = array_index_of(parse_json('{}'), 1)", rows: [[2, -1, -1, null]] },
  ]);
});

describe("strcat_array / array_strcat", () => {
  conformance([
    { q: 'print str = strcat_array(dynamic([1, "2", 3]), "->"), old = array_strcat(dynamic([1, "2", 3]), ",")', rows: [["1->2->3", "1,2,3"]], types: ["string", "string"] },
    { q: "print mixed = strcat_array(dynamic(['a', null, true, 2.5]), '|'), empty = strcat_array(dynamic([]), ','), notarray = strcat_array(parse_json('{}'), ',')", rows: [["a||true|2.5", "", ""]] },
  ]);
});

describe("strcat_array longer than the string limit is refused before it is built", () => {
  const q = 'range i from 1 to 1 step 1 | extend s = strrep(strcat("abcdefghij", tostring(i)), 1024) | project n = strlen(strcat_array(repeat(s, 100), ","))';
  for (const engine of ENGINES) {
    it(`${engine}`, async () => {
      const refusal = await runOn(engine, q).then(
        () => undefined,
        (error: unknown) => (engine === "duckdb" ? evaluationError(error) : clickhouseQueryError(error)),
      );
      expect(refusal?.message).toMatch(/strcat_array would build a string larger than the limit of 1,048,576 bytes/);
    });
  }
});
