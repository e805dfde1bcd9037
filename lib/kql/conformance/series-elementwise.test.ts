/**
 * Element-wise series functions and series reductions (functions/series-elementwise.ts) on both
 * engines. The printed outputs of Microsoft's documentation are in the docs ratchet
 * (conformance/docs.test.ts); these add what the pages leave out: unequal lengths, a number for a
 * series, elements that are not numbers, domains.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("element-wise series", () => {
  conformance([
    { q: "print r = series_add(dynamic([1,2,4]), dynamic([4,2,1]))", rows: [[[5, 4, 5]]], types: ["dynamic"] },
    { q: "print r = series_subtract(dynamic([1,2,3]), 1)", rows: [[[0, 1, 2]]] },
    { q: "print r = series_multiply(2, dynamic([1,2,3]))", rows: [[[2, 4, 6]]] },
    { q: "print r = series_add(dynamic([1,2,3]), dynamic([1]))", rows: [[[2, null, null]]] },
    { q: 'print r = series_add(dynamic([1,"a",null]), dynamic([1,1,1]))', rows: [[[2, null, null]]] },
    { q: "print r = series_divide(dynamic([1,2]), dynamic([0,4]))", rows: [[[null, 0.5]]] },
    { q: "print r = series_pow(dynamic([2,3]), 2)", rows: [[[4, 9]]] },
    { q: "print r = series_greater(dynamic([1,2,4]), dynamic([4,2,1])), e = series_equals(dynamic([1,2]), 2), n = series_not_equals(dynamic([1,2]), 2)", rows: [[[false, false, true], [false, true], [true, false]]] },
    { q: "print r = series_less(dynamic([1,2,4]), dynamic([4,2,1])), le = series_less_equals(dynamic([1,2,4]), 2), ge = series_greater_equals(dynamic([1,2,4]), 2)", rows: [[[true, false, false], [true, true, false], [false, true, true]]] },
    { q: "print r = series_abs(dynamic([-6.5,0,8.2])), s = series_sign(dynamic([-2,0,3])), c = series_ceiling(dynamic([1.5,-1.5])), f = series_floor(dynamic([1.5,-1.5]))", rows: [[[6.5, 0, 8.2], [-1, 0, 1], [2, -1], [1, -2]]] },
    { q: "print l = series_log(dynamic([1, 0, -1])), e = series_exp(dynamic([0])), a = series_asin(dynamic([1, 2])), c = series_acos(dynamic([1])), t = series_atan(dynamic([0]))", rows: [[[0, null, null], [1], [Math.PI / 2, null], [0], [0]]] },
    { q: "print s = series_sin(dynamic([0])), c = series_cos(dynamic([0])), t = series_tan(dynamic([0]))", rows: [[[0], [1], [0]]] },
  ]);
});

describe("series reductions", () => {
  conformance([
    { q: "print s = series_sum(dynamic([1,2,3,4])), p = series_product(dynamic([1,2,3,4])), m = series_magnitude(dynamic([3,4]))", rows: [[10, 24, 5]], types: ["real", "real", "real"] },
    { q: "print s = series_sum(dynamic([])), p = series_product(dynamic([1,null,3]))", rows: [[0, 3]] },
    { q: "print d = series_dot_product(dynamic([1,2,4]), dynamic([4,2,1])), b = series_dot_product(dynamic([1,2,4]), 2)", rows: [[12, 14]] },
    { q: "print c = series_cosine_similarity(dynamic([0.1,0.2,0.1,0.2]), dynamic([1,2,3,4])), z = series_cosine_similarity(dynamic([0,0]), dynamic([1,2]))", rows: [[0.923760430703401, null]] },
    { q: "print r = series_pearson_correlation(dynamic([1,2,3,4,5]), dynamic([2,4,6,8,10])), n = series_pearson_correlation(dynamic([1,2,3]), dynamic([3,2,1])), flat = series_pearson_correlation(dynamic([1,1]), dynamic([1,2]))", rows: [[1, -1, null]] },
    // series_iir: the pages' printed outputs (a running sum), then a first-order low-pass, a[0] scaling, invalid filters.
    { q: "let x = range(1.0, 10, 1); print x = x, y = series_iir(x, dynamic([1]), dynamic([1, -1])) | mv-expand x, y", rows: [[1, 1], [2, 3], [3, 6], [4, 10], [5, 15], [6, 21], [7, 28], [8, 36], [9, 45], [10, 55]] },
    { q: "print d = dynamic([0, 1, 2, 3, 4]) | extend dd = todouble(series_iir(d, dynamic([1]), dynamic([1, -1]))[4])", rows: [[[0, 1, 2, 3, 4], 10]] },
    { q: "print lp = series_iir(dynamic([1, 1, 1]), dynamic([0.5]), dynamic([1, -0.5])), scaled = series_iir(dynamic([2, 4]), dynamic([1, 1]), dynamic([2])), empty = series_iir(dynamic([]), dynamic([1]), dynamic([1]))", rows: [[[0.5, 0.75, 0.875], [1, 3], []]] },
    { q: "print a = isnull(series_iir(dynamic([1, 2]), dynamic([1]), dynamic([0, 1]))), b = isnull(series_iir(dynamic([1, 2]), dynamic([1]), dynamic([]))), c = isnull(series_iir(parse_json('{\"a\": 1}'), dynamic([1]), dynamic([1])))", rows: [[true, true, true]] },
  ]);
});
