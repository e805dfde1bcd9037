/**
 * Conformance: array_sort_* with several arrays, array_split (functions/collections.ts) and
 * bag_zip, bag_set_key, bag_remove_keys (functions/bags.ts) on both engines — the pages' printed
 * outputs, then edges (non-arrays, lengths that differ, negative and out-of-range indexes).
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("array_sort_* of several arrays and array_split", () => {
  conformance([
    { q: "let array1 = dynamic([1,3,4,5,2]); let array2 = dynamic(['a','b','c','d','e']); print array_sort_asc(array1, array2)", columns: ["array1_sorted", "array2_sorted"], rows: [[[1, 2, 3, 4, 5], ["a", "e", "b", "c", "d"]]] },
    { q: "let array1 = dynamic([1,3,4,5,2]); let array2 = dynamic(['a','b','c','d','e']); print array_sort_desc(array1, array2)", rows: [[[5, 4, 3, 2, 1], ["d", "c", "b", "e", "a"]]] },
    { q: "print x = array_sort_asc(dynamic([3, 1, 2]), dynamic(['c', 'a', 'b']), dynamic([1, 2]))", rows: [[[[1, 2, 3], ["a", "b", "c"], null]]] },
    { q: "print z = 1 | extend (a, b) = array_sort_asc(dynamic([2, 1]), dynamic(['x', 'y'])) | project a, b", columns: ["a", "b"], rows: [[[1, 2], ["y", "x"]]] },
    { q: "print x = array_sort_asc(dynamic(['b', 'a']), dynamic([1, 2]))[1]", rows: [[[2, 1]]] },
    { q: "print arr_split = array_split(dynamic([1,2,3,4,5]), 2)", rows: [[[[1, 2], [3, 4, 5]]]] },
    { q: "print arr_split = array_split(dynamic([1,2,3,4,5]), dynamic([1,3]))", rows: [[[[1], [2, 3], [4, 5]]]] },
    { q: "print a = array_split(dynamic([1,2,3]), -1), b = array_split(dynamic([1,2,3]), 10), c = array_split(dynamic([]), 1), d = array_split(parse_json('{\"a\": 1}'), 1)", rows: [[[[1, 2], [3]], [[1, 2, 3], []], [[], []], null]] },
  ]);
});

describe("bag_zip, bag_set_key, bag_remove_keys", () => {
  conformance([
    { q: "datatable(KeysArray: dynamic, ValuesArray: dynamic) [dynamic(['a', 'b', 'c']), dynamic([1, '2', 3.4])] | extend NewBag = bag_zip(KeysArray, ValuesArray) | project NewBag", rows: [[{ a: 1, b: "2", c: 3.4 }]] },
    { q: "print a = bag_zip(dynamic(['a', 'b', 'c']), dynamic([1, '2'])), b = bag_zip(dynamic(['a', 'b']), dynamic([1, '2', 2.5])), c = bag_zip(dynamic(['a', 8, 'b']), dynamic([1, '2', 2.5])), d = bag_zip(dynamic(['a', 8, 'b']), parse_json('1')), e = isnull(bag_zip(parse_json('\"a\"'), dynamic([1]))), f = bag_zip(dynamic(['a', 'a']), dynamic([1, 2])), g = bag_zip(dynamic([]), dynamic([]))", rows: [[{ a: 1, b: "2", c: null }, { a: 1, b: "2" }, { a: 1, b: 2.5 }, { a: null, b: null }, true, { a: 1 }, {}]] },
    {
      q: "datatable(input: dynamic) [dynamic({'key1': 1, 'key2': 2}), dynamic({'key1': 1, 'key3': 'abc'})] | extend result = bag_set_key(input, 'key3', 3)",
      rows: [[{ key1: 1, key2: 2 }, { key1: 1, key2: 2, key3: 3 }], [{ key1: 1, key3: "abc" }, { key1: 1, key3: 3 }]],
    },
    {
      q: "datatable(input: dynamic) [dynamic({'key1': 123, 'key2': {'prop1': 123, 'prop2': 'xyz'}}), dynamic({'key1': 123})] | extend result = bag_set_key(input, '$.key2.prop1', 'abc')",
      rows: [[{ key1: 123, key2: { prop1: 123, prop2: "xyz" } }, { key1: 123, key2: { prop1: "abc", prop2: "xyz" } }], [{ key1: 123 }, { key1: 123, key2: { prop1: "abc" } }]],
    },
    { q: "print a = bag_set_key(dynamic({'a': {'x': 1}}), 'a', dynamic({'y': 2})), b = bag_set_key(parse_json('[1]'), 'a', 1), c = bag_set_key(dynamic({}), \"it's\", dynamic([1, 2]))", rows: [[{ a: { y: 2 } }, null, { "it's": [1, 2] }]] },
    {
      q: "datatable(input:dynamic) [dynamic({'key1' : 123, 'key2': 'abc'}), dynamic({'key1' : 'value', 'key3': 42.0})] | extend result=bag_remove_keys(input, dynamic(['key2', 'key4']))",
      rows: [[{ key1: 123, key2: "abc" }, { key1: 123 }], [{ key1: "value", key3: 42 }, { key1: "value", key3: 42 }]],
    },
    {
      q: "datatable(input:dynamic) [dynamic({'key1': 123, 'key2': {'prop1' : 'abc', 'prop2': 'xyz'}, 'key3': [100, 200]})] | extend result=bag_remove_keys(input, dynamic(['$.key2.prop1', 'key3'])) | project result",
      rows: [[{ key1: 123, key2: { prop2: "xyz" } }]],
    },
    { q: "print a = bag_remove_keys(dynamic({'a': 1}), dynamic(['a'])), b = bag_remove_keys(parse_json('[1]'), dynamic(['a'])), c = bag_remove_keys(dynamic({'a': 1, 'b': 2}), dynamic([]))", rows: [[{}, null, { a: 1, b: 2 }]] },
  ]);
});
