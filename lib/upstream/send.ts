import "server-only";
/**
 * One call to the service with a time limit per attempt and retries where they are safe:
 *  - "read" (GETs, telemetry queries) and "keyed-write" (task creation, which carries an
 *    Idempotency-Key so the service answers a repeat with the first result): retried on 429
 *    (after `Retry-After`), 5xx, timeouts and network errors, with exponential backoff + jitter;
 *  - "write" (stock level, transition): retried on 429 only — the service refused it unprocessed;
 *    after a 5xx or a timeout it may have been applied, and a second submission would be recorded.
 */
import { ApiError } from "@/lib/contract/errors";
import { AnswerTooLarge, type Transport, type UpstreamRequest, type UpstreamResponse } from "./transport";

export type RetryPolicy = "read" | "keyed-write" | "write";

export interface SendOptions {
  timeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff; doubled after each retry, plus up to 50 % jitter. */
  baseDelayMs: number;
  /** A 429 whose Retry-After asks for longer is passed to the browser instead of waited out. */
  maxRetryAfterMs: number;
}

export const DEFAULT_SEND_OPTIONS: Omit<SendOptions, "timeoutMs"> = { maxAttempts: 3, baseDelayMs: 100, maxRetryAfterMs: 5_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

class AttemptTimeout extends Error {}

async function attempt(transport: Transport, request: Omit<UpstreamRequest, "signal">, timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  const abortFromOuter = () => controller.abort();
  outer?.addEventListener("abort", abortFromOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AttemptTimeout());
    }, timeoutMs);
  });
  try {
    // The race also covers the in-process transport, whose handler may not watch the signal.
    return await Promise.race([transport({ ...request, signal: controller.signal }), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", abortFromOuter);
  }
}

export async function sendWithRetries(
  transport: Transport,
  request: Omit<UpstreamRequest, "signal">,
  policy: RetryPolicy,
  options: SendOptions,
  signal?: AbortSignal,
): Promise<UpstreamResponse> {
  const where = `${request.method} ${request.path}`;
  for (let attemptNo = 1; ; attemptNo += 1) {
    const last = attemptNo >= options.maxAttempts;
    const backoff = () => sleep(options.baseDelayMs * 2 ** (attemptNo - 1) * (1 + Math.random() * 0.5));
    let response: UpstreamResponse;
    try {
      response = await attempt(transport, request, options.timeoutMs, signal);
    } catch (error) {
      if (signal?.aborted) throw new ApiError("CLIENT_CLOSED_REQUEST", "The request was cancelled.");
      // Asking again would only fetch the same oversized answer.
      if (error instanceof AnswerTooLarge) {
        console.warn(`[upstream] ${where}: answer over ${error.limitBytes} bytes, not read (UPSTREAM_MAX_ANSWER_MB)`);
        throw new ApiError(
          "UPSTREAM_INVALID_RESPONSE",
          `The service's answer was larger than the dashboard reads (${Math.round(error.limitBytes / 1048576)} MB). Narrow the request (a shorter range, fewer rows or columns).`,
        );
      }
      const timedOut = error instanceof AttemptTimeout;
      if (policy !== "write" && !last) {
        await backoff();
        continue;
      }
      if (timedOut) {
        console.warn(`[upstream] ${where}: no answer within ${options.timeoutMs} ms (attempt ${attemptNo})`);
        throw new ApiError("UPSTREAM_TIMEOUT", "The service did not answer in time. Please try again.");
      }
      console.warn(`[upstream] ${where}: unreachable (${error instanceof Error ? error.message : "network error"})`);
      throw new ApiError("UPSTREAM_UNAVAILABLE", "The service cannot be reached right now. Please try again later.");
    }
    if (response.status === 429 && !last) {
      const wait = retryAfterMs(response.headers["retry-after"]) ?? options.baseDelayMs * 2 ** (attemptNo - 1);
      if (wait <= options.maxRetryAfterMs) {
        await sleep(wait);
        continue;
      }
    }
    if (response.status >= 500 && policy !== "write" && !last) {
      await backoff();
      continue;
    }
    return response;
  }
}
