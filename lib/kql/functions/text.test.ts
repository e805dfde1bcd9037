/** text.ts: ADX's text rules that DuckDB runs as scalar functions (the engines' answers: conformance/text-functions.test.ts). */
import { describe, expect, it } from "vitest";
import * as text from "./text";
import { VALUE_LIMITS } from "../budget";

describe("text rules", () => {
  it("replace_strings: earlier lookups claim first, all rewrites at once", () => {
    expect(text.replaceStrings("This is", '["is", "This"]', '["was", "This"]')).toBe("Thwas was");
    expect(text.replaceStrings("ab", '["a", "b"]', '["b", "a"]')).toBe("ba");
    expect(text.replaceStrings("ab", "{}", "[]")).toBeNull();
    expect(() => text.replaceStrings("a".repeat(1000), '["a"]', JSON.stringify(["x".repeat(2000)]))).toThrow(/limit of 1,048,576 bytes/);
  });

  it("unicode_codepoints_to_string: numbers and arrays of them; null on anything else", () => {
    expect(text.codepointsToString("[75, [117, 115]]")).toBe("Kus");
    expect(text.codepointsToString('[75, "a"]')).toBeNull();
    expect(text.codepointsToString("[1114112]")).toBeNull();
    expect(() => text.codepointsToString(JSON.stringify([Array(VALUE_LIMITS.stringBytes + 1).fill(65)]))).toThrow(/limit/);
  });

  it("has_any_index: a term, case-insensitive; numbers as their text", () => {
    expect(text.hasAnyIndex("Example number 2", "[1, 2]")).toBe(1n);
    expect(text.hasAnyIndex("helloworld", '["world"]')).toBe(-1n);
    expect(text.hasAnyIndex("x", "{}")).toBeNull();
  });

  it("url_encode: .NET's safe characters, lower-case escapes of UTF-8 bytes", () => {
    expect(text.urlEncode("a b/é~", false)).toBe("a+b%2f%c3%a9%7e");
    expect(text.urlEncode("a b", true)).toBe("a%20b");
  });

  it("parse_urlquery: pairs decoded, a key without '=' is empty, no prototype keys", () => {
    expect(JSON.parse(text.parseUrlQuery("a=1&b=%2F&c&&__proto__=x"))).toEqual({ "Query Parameters": { a: "1", b: "/", c: "", ["__proto__"]: "x" } });
  });
});
