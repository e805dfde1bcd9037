import "server-only";
/**
 * The telemetry access token, shared by every query of this process: fetched once, reused until
 * shortly before it expires, and fetched by ONE request however many queries need it at the same
 * moment (single flight). A token the service rejects (401) is dropped so the next caller fetches
 * a fresh one — unless another caller already replaced it.
 */
export interface AccessToken {
  value: string;
  /** Lifetime in seconds, as the token endpoint's `expires_in`. */
  expiresIn: number;
}

export interface TokenCache {
  get(): Promise<string>;
  /** Forget `rejected` if it is still the cached token. */
  invalidate(rejected: string): void;
}

export function createTokenCache(
  fetchToken: () => Promise<AccessToken>,
  { refreshMarginMs = 60_000, now = () => Date.now() }: { refreshMarginMs?: number; now?: () => number } = {},
): TokenCache {
  let cached: { value: string; refreshAt: number } | null = null;
  let inFlight: Promise<string> | null = null;

  return {
    get() {
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.value);
      inFlight ??= fetchToken()
        .then((token) => {
          // Refresh a margin before expiry, but never sooner than half the lifetime (short test tokens).
          const lifetimeMs = token.expiresIn * 1000;
          cached = { value: token.value, refreshAt: now() + Math.max(lifetimeMs - refreshMarginMs, lifetimeMs / 2) };
          return token.value;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    invalidate(rejected) {
      if (cached?.value === rejected) cached = null;
    },
  };
}
