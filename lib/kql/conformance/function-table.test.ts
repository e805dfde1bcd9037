/**
 * Conformance: functions declared in the function table (lib/kql/functions/), with the outputs
 * Microsoft's documentation prints for them (MicrosoftDocs/dataexplorer-docs, kusto/query/*-function.md)
 * where it prints one, on both engines.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("math", () => {
  conformance([
    { q: "print pi(), sin(0), cos(0), atan2(1, 1), atan(1), tan(0)", rows: [[Math.PI, 0, 1, Math.PI / 4, Math.PI / 4, 0]], types: ["real", "real", "real", "real", "real", "real"] },
    { q: "print asin(1), acos(1), asin(2), cot(1), degrees(pi()), radians(180)", rows: [[Math.PI / 2, 0, null, 1 / Math.tan(1), 180, Math.PI]] },
    { q: "print gamma(5), loggamma(5), isinf(1.0), isnan(1.0), isfinite(2)", rows: [[24, Math.log(24), false, false, true]], types: ["real", "real", "bool", "bool", "bool"] },
    { q: "print r = rand(), n = rand(10) | where r >= 0 and r < 1 and n >= 0 and n < 10 | count", rows: [[1]] },
  ]);
});

describe("numbers and bits", () => {
  conformance([
    { q: "print binary_and(6, 3), binary_or(6, 3), binary_xor(6, 3), binary_not(5), bitset_count_ones(255), bitset_count_ones(-1)", rows: [[2, 7, 5, -6, 8, 64]], types: ["long", "long", "long", "long", "long", "long"] },
    { q: "print binary_shift_left(1, 2), binary_shift_left(3, 62), binary_shift_right(-8, 1), binary_shift_left(1, 66)", rows: [[4, -4611686018427387904, -4, 4]] },
    // indexof-function.md's nine printed indexes (a length reaches one character further: idx8), then edges.
    {
      q: 'print idx1 = indexof("abcdefg","cde"), idx2 = indexof("abcdefg","cde",1,4), idx3 = indexof("abcdefg","cde",1,2), idx4 = indexof("abcdefg","cde",3,4), idx5 = indexof("abcdefg","cde",-5), idx6 = indexof(1234567,5,1,4), idx7 = indexof("abcdefg","cde",2,-1), idx8 = indexof("abcdefgabcdefg", "cde", 1, 10, 2), idx9 = indexof("abcdefgabcdefg", "cde", 1, -1, 3)',
      rows: [[2, 2, -1, -1, 2, 4, 2, 9, -1]],
      types: ["long", "long", "long", "long", "long", "long", "long", "long", "long"],
    },
    { q: 'print indexof("abc", "x"), indexof("abc", ""), indexof("héllo", "l"), indexof("aaaa", "aa", 0, -1, 2), indexof("abc", "c", 0, -2), indexof("abc", "c", 0, -1, -1), indexof("abc", "c", 10), indexof("", "a"), indexof("abc", "c", long(null))', rows: [[-1, 0, 2, 2, null, null, -1, -1, null]] },
    // base64-decode-tostring-function.md: base64 of bytes that are not UTF-8 decodes to '' (ClickHouse's tryBase64Decode kept them).
    { q: 'print Empty = base64_decode_tostring("U3RyaW5n0KHR0tGA0L7Rh9C60LA="), ok = base64_decode_tostring("S3VzdG8="), bad = base64_decode_tostring("x0x0x0")', rows: [["", "Kusto", ""]] },
    // tohex-function.md's printed row: an int is 32 bits, a long 64.
    { q: "print tohex(256) == '100', tohex(-256) == 'ffffffffffffff00', tohex(toint(-256), 8) == 'ffffff00', tohex(256, 8) == '00000100', tohex(256, 2) == '100'", rows: [[true, true, true, true, true]] },
    { q: "print tohex(toint(-1)), tohex(-1), tohex(toint(255)), tohex(int(null)), tohex(toint(-256), 10)", rows: [["ffffffff", "ffffffffffffffff", "ff", "", "00ffffff00"]] },
    { q: "print tohex(256), tohex(-546), tohex(255, 4), tohex(0), tohex(1234567, 2)", rows: [["100", "fffffffffffffdde", "00ff", "0", "12d687"]] },
  ]);
});

describe("hashes (ADX's values)", () => {
  conformance([
    { q: 'print hash("World"), hash("World", 100), hash_xxhash64("World")', rows: [[1846988464401551951, 51, 1846988464401551951]], types: ["long", "long", "long"] },
    { q: 'print hash_sha256("World"), hash_md5("World"), hash_sha1("World")', rows: [["78ae647dc5544d227130a0682a51e30bc7777fbb6d8a8f17007463a3ecd1d524", "f5a7924e621e84c9280a9a27e1bcb7f6", "70c07ec18ef89c5309bbb0937f3a6342411e1fdd"]] },
    { q: 'print hash(strcat("a", "b")) == hash("ab"), hash("ab", 0)', rows: [[true, null]] },
    // A datetime: hash() over its ticks' bytes, the digests over its text (the pages' printed values).
    { q: 'print hash(datetime("2015-01-01")), hash_xxhash64(datetime("2015-01-01")), hash(datetime(2015-01-01), 100)', rows: [[1380966698541616202, 1380966698541616202, 2]] },
    { q: "print h1 = hash_md5(datetime(2020-01-01)), h2 = hash_sha1(datetime(2020-01-01)), h3 = hash_sha256(datetime(2020-01-01)), h4 = hash_md5(123)", rows: [["786c530672d1f8db31fee25ea8a9390b", "e903e533f4d636b4fc0dcf3cf81e7b7f330de776", "ba666752dc1a20eb750b0eb64e780cc4c968bc9fb8813461c1d7e750f302d71d", "202cb962ac59075b964b07152d234b70"]] },
  ]);
});

describe("strings and encodings", () => {
  conformance([
    { q: 'datatable(string1: string, string2: string) ["ABC", "ABC", "abc", "ABC", "ABC", "abc", "abcde", "abc"] | extend result = strcmp(string1, string2)', rows: [["ABC", "ABC", 0], ["abc", "ABC", 1], ["ABC", "abc", -1], ["abcde", "abc", 1]], types: ["string", "string", "long"] },
    { q: 'print translate("abc", "x", "abc"), translate("abc", "", "ab"), translate("krasp", "otsku", "spark")', rows: [["xxx", "", "kusto"]] },
    { q: 'print base64_encode_tostring("Kusto"), base64_decode_tostring("S3VzdG8="), base64_decode_tostring("!!")', rows: [["S3VzdG8=", "Kusto", ""]] },
    { q: "print result = regex_quote('(so$me.Te^xt)')", rows: [["\\(so\\$me\\.Te\\^xt\\)"]] },
  ]);
});

describe("date and time", () => {
  conformance([
    { q: "print unixtime_seconds_todatetime(1546300800), unixtime_milliseconds_todatetime(1546300800123), unixtime_microseconds_todatetime(1546300800123456), unixtime_nanoseconds_todatetime(1546300800000000000)", rows: [["2019-01-01T00:00:00.000Z", "2019-01-01T00:00:00.123Z", "2019-01-01T00:00:00.123Z", "2019-01-01T00:00:00.000Z"]], types: ["datetime", "datetime", "datetime", "datetime"] },
    { q: "print make_datetime(2017, 10, 1, 12, 10, 10), make_datetime(2017, 10, 1), make_datetime(2017, 13, 1), make_datetime(2017, 2, 30)", rows: [["2017-10-01T12:10:10.000Z", "2017-10-01T00:00:00.000Z", null, null]] },
    { q: "print make_timespan(1, 12, 30, 55) == 1d + 12h + 30m + 55s, make_timespan(2, 30) == 2h + 30m", rows: [[true, true]] },
    { q: "print week_of_year(datetime(2020-12-31)), week_of_year(datetime(2015-12-14))", rows: [[53, 51]], types: ["int", "int"] },
  ]);
});

describe("aggregates", () => {
  conformance([
    { q: "datatable(x: real, y: real) [1, 2, 2, 4, 3, 7] | summarize c = covariance(x, y), cp = covariancep(x, y), ci = covarianceif(x, y, x < 3), v = variancepif(x, x > 1)", rows: [[2.5, 5 / 3, 1, 0.25]] },
    { q: "datatable(x: long) [12, 10, 14] | summarize a = binary_all_and(x), o = binary_all_or(x), e = binary_all_xor(x)", rows: [[8, 14, 8]], types: ["long", "long", "long"] },
  ]);
});

describe("text checks and ids", () => {
  conformance([
    { q: 'print isascii("abc"), isascii("äbc"), strlen(tostring(new_guid())), new_guid() != new_guid()', rows: [[true, false, 36, true]] },
  ]);
});

describe("dynamic arrays and URLs", () => {
  conformance([
    { q: 'print arr = dynamic(["this", "is", "an", "example"]) | project r = array_reverse(arr)', rows: [[["example", "an", "is", "this"]]] },
    { q: "print a = dynamic([1, 2, 3]), b = dynamic([4, 5]) | project c = array_concat(a, b), d = array_concat(a, dynamic(['x']), b)", rows: [[[1, 2, 3, 4, 5], [1, 2, 3, "x", 4, 5]]] },
    { q: "print url_decode(@'https%3a%2f%2fwww.bing.com%2f'), url_decode('a+b%20c'), isutf8('abc')", rows: [["https://www.bing.com/", "a b c", true]] },
  ]);
});
