import { describe, expect, it } from "vitest";
import { createAnswerCache } from "./answer-cache";

const answer = (etag: string, size: number) => ({ etag, json: "x".repeat(size), value: { etag }, headers: {} });

describe("the remote client's answer cache", () => {
  it("stays within its budget, dropping the least recently used first", () => {
    const cache = createAnswerCache(100);
    cache.set("a", answer("1", 20));
    cache.set("b", answer("2", 20));
    cache.set("c", answer("3", 20));
    cache.get("a"); // a is now the most recent
    cache.set("d", answer("4", 20));
    cache.set("e", answer("5", 20));
    expect(cache.bytes).toBe(100);
    cache.set("f", answer("6", 20));
    expect(cache.bytes).toBe(100);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.etag).toBe("1");
  });

  it("replaces an entry for the same key and counts it once", () => {
    const cache = createAnswerCache(100);
    cache.set("a", answer("1", 20));
    cache.set("a", answer("2", 10));
    expect([cache.bytes, cache.get("a")?.etag]).toEqual([10, "2"]);
    cache.delete("a");
    expect([cache.bytes, cache.get("a")]).toEqual([0, undefined]);
  });

  it("does not hold an answer larger than a quarter of the budget", () => {
    const cache = createAnswerCache(100);
    cache.set("small", answer("1", 25));
    cache.set("big", answer("2", 26));
    expect([cache.get("big"), cache.get("small")?.etag, cache.bytes]).toEqual([undefined, "1", 25]);
  });
});
