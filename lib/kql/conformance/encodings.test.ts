/**
 * Conformance: base64_decode_toarray, base64_encode_fromarray, indexof_regex (functions/encodings.ts)
 * and erf/erfc (functions/math.ts, erf.ts) on both engines — the pages' printed outputs, then
 * malformed input, nulls and the edges of each rule.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("encodings, indexof_regex, erf", () => {
  conformance([
    // The pages' printed outputs.
    { q: 'print Quine = base64_decode_toarray("S3VzdG8=")', rows: [[[75, 117, 115, 116, 111]]], types: ["dynamic"] },
    { q: 'let bytes_array = toscalar(print base64_decode_toarray("S3VzdG8=")); print decoded_base64_string = base64_encode_fromarray(bytes_array)', rows: [["S3VzdG8="]], types: ["string"] },
    { q: 'let empty_bytes_array = toscalar(print base64_decode_toarray("U3RyaW5n0KHR0tGA0L7Rh9C60LA")); print empty_string = base64_encode_fromarray(empty_bytes_array)', rows: [[""]] },
    {
      q: 'print idx1 = indexof_regex("abcabc", @"a.c"), idx2 = indexof_regex("abcabcdefg", @"a.c", 0, 9, 2), idx3 = indexof_regex("abcabc", @"a.c", 1, -1, 2), idx4 = indexof_regex("ababaa", @"a.a", 0, -1, 2), idx5 = indexof_regex("abcabc", @"a|ab", -1)',
      rows: [[0, 3, -1, -1, null]],
      types: ["long", "long", "long", "long", "long"],
    },
    {
      q: "range x from -3 to 3 step 1 | extend erf_x = erf(x), erfc_x = erfc(x)",
      rows: [
        [-3, -0.999977909503001, 1.999977909503001],
        [-2, -0.995322265018953, 1.995322265018953],
        [-1, -0.842700792949715, 1.842700792949715],
        [0, 0, 1],
        [1, 0.842700792949715, 0.157299207050285],
        [2, 0.995322265018953, 0.00467773498104727],
        [3, 0.999977909503001, 2.20904969985854e-5],
      ],
    },
    // Edges: invalid and empty base64, bytes out of range, non-arrays; characters (not bytes) counted; a quote in the pattern; nulls.
    { q: 'print base64_decode_toarray(""), base64_decode_toarray("x0x0x0"), base64_decode_toarray("AP8="), base64_encode_fromarray(dynamic([0, 255])), base64_encode_fromarray(dynamic([1, 300])), base64_encode_fromarray(dynamic([])), base64_encode_fromarray(parse_json(\'{"a": 1}\'))', rows: [[[], null, [0, 255], "AP8=", "", "", ""]] },
    { q: "print indexof_regex('héllo wörld', @'w.r'), indexof_regex(\"a'b\", \"'\"), indexof_regex('abc', 'x'), indexof_regex('abcabc', 'b', 2), indexof_regex('abcabc', 'b', 0, 1), indexof_regex('aaa', 'a', 0, -1, 3), indexof_regex('abc', 'c', 0, -2)", rows: [[6, 1, -1, 4, -1, 2, null]] },
    { q: "print erf(0.5), erfc(0.5), erf(5), erfc(5), erfc(10), erf(real(null))", rows: [[0.5204998778130465, 0.4795001221869535, 0.9999999999984626, 1.5374597944280351e-12, 2.088487583762545e-45, null]] },
  ]);
});
