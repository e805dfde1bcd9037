import "server-only";
/**
 * Calls to the dashboard's `/api/` per signed-in user per minute (DASHBOARD_RATE_LIMIT_PER_MINUTE):
 * one person — or a script holding their session — cannot take the dashboard's server, or the
 * service behind it, from everybody else. The service's own fixed windows (lib/shared-state), in
 * this process's memory or, with REDIS_URL, in Redis, so the limit holds for all instances
 * together. Past it: 429 RATE_LIMITED with Retry-After, in words the pages show as they are.
 */
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/contract/errors";
import { createRateLimiter, type RateLimiter } from "@/lib/platform/rate-limit";
import { getSharedState } from "@/lib/shared-state";
import { createFixedWindowCounter } from "@/lib/shared-state/fixed-window";

let processLimiter: RateLimiter | undefined;

/** One limiter per process, like the shared state it uses. */
function limiter(): RateLimiter {
  const config = getConfig();
  processLimiter ??= createRateLimiter(config.DASHBOARD_RATE_LIMIT_PER_MINUTE, createFixedWindowCounter(getSharedState(config), "dashboard-requests", 60_000));
  return processLimiter;
}

/** Spends one call of the user's window, or throws 429 saying how long to wait. */
export async function spendApiCall(userId: number): Promise<void> {
  const decision = await limiter().consume(`user:${userId}`);
  if (decision.allowed) return;
  const perMinute = getConfig().DASHBOARD_RATE_LIMIT_PER_MINUTE;
  const seconds = decision.retryAfterSeconds;
  throw new ApiError(
    "RATE_LIMITED",
    `Too many requests from your account (more than ${perMinute.toLocaleString("en-US")} a minute). Wait ${seconds} second${seconds === 1 ? "" : "s"}, then try again.`,
    [],
    { "retry-after": String(seconds) },
  );
}
