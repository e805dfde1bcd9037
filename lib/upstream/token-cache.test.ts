/**
 * The remote upstream's token cache on each backend (memory, Redis): one fetch for many callers,
 * a rejected token dropped but a newer one kept — and, on Redis, one token for two instances, and a
 * rejection seen by one instance dropping the token for the other at once.
 */
import { expect, it } from "vitest";
import { describeSharedState } from "../shared-state/testing";
import { createTokenCache, createTokenStore, type AccessToken } from "./token-cache";

/** A token endpoint that counts what it issues. */
function endpoint() {
  let issued = 0;
  return {
    fetch: async (): Promise<AccessToken> => {
      issued += 1;
      await new Promise((resolve) => setTimeout(resolve, 5)); // let concurrent callers pile up
      return { value: `tok-${issued}`, expiresIn: 3600 };
    },
    issued: () => issued,
  };
}

describeSharedState("upstream token cache", (backend) => {
  const cacheFor = (tokens: ReturnType<typeof endpoint>, client: string) =>
    createTokenCache(tokens.fetch, { store: createTokenStore(backend.connect(), `${client} api://plant-telemetry/.default`) });

  it("fetches one token for many concurrent callers and reuses it", async () => {
    const tokens = endpoint();
    const cache = cacheFor(tokens, "client-many");
    const values = await Promise.all(Array.from({ length: 50 }, () => cache.get()));
    expect(new Set(values)).toEqual(new Set(["tok-1"]));
    expect(await cache.get()).toBe("tok-1");
    expect(tokens.issued()).toBe(1);
  });

  it("drops a rejected token, but not a newer one that replaced it", async () => {
    const tokens = endpoint();
    const cache = cacheFor(tokens, "client-rejected");
    expect(await cache.get()).toBe("tok-1");
    await cache.invalidate("tok-1");
    expect(await cache.get()).toBe("tok-2");
    await cache.invalidate("tok-1"); // a late report about the old token
    expect(await cache.get()).toBe("tok-2");
    expect(tokens.issued()).toBe(2);
  });

  it.skipIf(backend.kind === "memory")("gives two instances one token, and drops it for both when one sees it rejected", async () => {
    const tokens = endpoint();
    const [one, two] = [cacheFor(tokens, "client-shared"), cacheFor(tokens, "client-shared")];
    expect(await one.get()).toBe("tok-1");
    expect(await two.get()).toBe("tok-1");
    await two.invalidate("tok-1");
    expect(await one.get()).toBe("tok-2");
    expect(await two.get()).toBe("tok-2");
    expect(tokens.issued()).toBe(2);
    // Another client's token is its own.
    expect(await cacheFor(tokens, "client-other").get()).toBe("tok-3");
  });
});
