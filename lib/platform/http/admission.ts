/**
 * The front door's admission (docs/architecture.md, "A fair front door"): before any route work,
 * each request takes a place in its principal's pool — anonymous requests (sign-in attempts
 * included) share one small pool, every credential a route has accepted (a signed-in session, a
 * plant token, a telemetry client's access token) has a pool of its own, and Next's static assets
 * one more, so that a flood from one principal or from anonymous clients waits in its own bounded
 * queue or is refused, and everyone else is served. ADX throttles per principal the same way.
 *
 * Telling principals apart costs no database read and no hash check: a credential is known by the
 * SHA-256 of its text. A credential gets its own pool only once a route has accepted it
 * (`acceptCredential`, set by the routes that check it: the /api/ session check, the plant token,
 * the telemetry access token; and a session cookie next-auth has just issued). Until then it counts
 * as anonymous, so inventing a fresh token per request buys no pool of one's own; a credential a
 * route refused (401) loses its pool again.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

interface PoolLimits {
  /** Requests of the pool served at once. */
  concurrent: number;
  /** Requests of the pool waiting for a place; beyond it a request is refused at once. */
  queue: number;
}

export interface AdmissionLimits {
  anonymous: PoolLimits;
  principal: PoolLimits;
  /** Next's static assets (`/_next/static/`), shared by everyone: cheap files, kept apart from pages. */
  assets: PoolLimits;
  /** Longest wait in a queue before the request is refused. */
  queueWaitMs: number;
}

export type PoolKind = "anonymous" | "principal" | "assets";

interface Ticket {
  /** Gives the place back (idempotent). */
  release(): void;
}

type Admission = { admitted: true; ticket: Ticket } | { admitted: false; retryAfterSeconds: number };

interface Waiter {
  grant(ticket: Ticket): void;
  timer: NodeJS.Timeout;
}

interface Pool {
  running: number;
  waiting: Waiter[];
}

/** Credentials accepted by a route, remembered at most this many (least recently used go first). */
const ACCEPTED_LIMIT = 50_000;
/** An accepted credential not seen for this long is forgotten (it then counts as anonymous until accepted again). */
const ACCEPTED_IDLE_MS = 60 * 60_000;

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 32);
}

function cookieValue(header: string | undefined, names: readonly string[]): string | null {
  if (!header) return null;
  const found = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) found.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  for (const name of names) {
    const whole = found.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let index = 0; found.has(`${name}.${index}`); index += 1) chunks.push(found.get(`${name}.${index}`)!);
    if (chunks.length > 0) return chunks.join("");
  }
  return null;
}

/**
 * The credential a request carries, as a key: a bearer token (plant token, telemetry access token)
 * or the session cookie; null when it carries neither. Hashed, never kept as sent.
 */
function credentialKey(headers: IncomingMessage["headers"]): string | null {
  const authorization = headers.authorization;
  const bearer = typeof authorization === "string" ? /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return `bearer:${digest(bearer)}`;
  const cookie = cookieValue(typeof headers.cookie === "string" ? headers.cookie : undefined, SESSION_COOKIES);
  return cookie ? `session:${digest(cookie)}` : null;
}

/** The session cookie next-auth sets on a response (sign-in, or the session's re-issue), as a key. */
function issuedSessionKey(res: ServerResponse): string | null {
  const set = res.getHeader("set-cookie");
  const lines = Array.isArray(set) ? set : typeof set === "string" ? [set] : [];
  const pairs = lines.map((line) => line.split(";")[0]!).filter((pair) => !/=\s*$/.test(pair));
  const value = cookieValue(pairs.join("; "), SESSION_COOKIES);
  return value ? `session:${digest(value)}` : null;
}

const acceptedBy = new WeakMap<ServerResponse, boolean>();

/** A route checked the request's credential: accepted (true) or refused (false). Read when the answer ends. */
export function markCredential(res: ServerResponse, accepted: boolean): void {
  acceptedBy.set(res, accepted);
}

export interface Admitter {
  /** The pool a request belongs to: anonymous, assets, or its accepted credential's key. */
  poolOf(req: IncomingMessage, pathname: string): { key: string; kind: PoolKind };
  /** Waits for a place in the pool (at most `queueWaitMs`), or refuses at once when its queue is full. */
  admit(pool: { key: string; kind: PoolKind }, gone: AbortSignal): Promise<Admission>;
  /** After the answer: remembers a credential a route accepted (or a session cookie just issued), forgets a refused one. */
  settle(req: IncomingMessage, res: ServerResponse): void;
  /** For metrics and tests: requests running and waiting per pool kind. */
  usage(): Record<PoolKind, { running: number; waiting: number; pools: number }>;
}

export function createAdmitter(limits: AdmissionLimits): Admitter {
  const pools = new Map<string, Pool>();
  const kinds = new Map<string, PoolKind>();
  /** Accepted credential keys → last seen; a Map keeps insertion order, refreshed on use (LRU). */
  const accepted = new Map<string, number>();

  const limitsOf = (kind: PoolKind): PoolLimits => limits[kind];

  function remember(key: string, now: number) {
    accepted.delete(key);
    accepted.set(key, now);
    if (accepted.size > ACCEPTED_LIMIT) accepted.delete(accepted.keys().next().value!);
  }

  function isAccepted(key: string, now: number): boolean {
    const seen = accepted.get(key);
    if (seen === undefined) return false;
    if (now - seen > ACCEPTED_IDLE_MS) {
      accepted.delete(key);
      return false;
    }
    remember(key, now);
    return true;
  }

  function ticketFor(key: string, pool: Pool): Ticket {
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        const next = pool.waiting.shift();
        if (next) {
          // The place passes straight to the next in line: the count of running stays.
          clearTimeout(next.timer);
          next.grant(ticketFor(key, pool));
          return;
        }
        pool.running -= 1;
        if (pool.running === 0) {
          pools.delete(key);
          kinds.delete(key);
        }
      },
    };
  }

  return {
    poolOf(req, pathname) {
      if (pathname.startsWith("/_next/static/")) return { key: "assets", kind: "assets" };
      const credential = credentialKey(req.headers);
      if (credential && isAccepted(credential, Date.now())) return { key: credential, kind: "principal" };
      return { key: "anonymous", kind: "anonymous" };
    },

    admit({ key, kind }, gone) {
      const { concurrent, queue } = limitsOf(kind);
      let pool = pools.get(key);
      if (!pool) {
        pool = { running: 0, waiting: [] };
        pools.set(key, pool);
        kinds.set(key, kind);
      }
      if (pool.running < concurrent) {
        pool.running += 1;
        return Promise.resolve({ admitted: true, ticket: ticketFor(key, pool) });
      }
      const retryAfterSeconds = Math.max(1, Math.ceil(limits.queueWaitMs / 1000));
      if (pool.waiting.length >= queue || limits.queueWaitMs === 0) return Promise.resolve({ admitted: false, retryAfterSeconds });
      const waiting = pool;
      return new Promise<Admission>((resolve) => {
        const leave = () => {
          const at = waiting.waiting.indexOf(waiter);
          if (at >= 0) waiting.waiting.splice(at, 1);
          clearTimeout(waiter.timer);
          gone.removeEventListener("abort", onGone);
        };
        const onGone = () => {
          leave();
          resolve({ admitted: false, retryAfterSeconds });
        };
        const waiter: Waiter = {
          grant(ticket) {
            gone.removeEventListener("abort", onGone);
            // A client that left while waiting gives its place on at once.
            if (gone.aborted) {
              ticket.release();
              return resolve({ admitted: false, retryAfterSeconds });
            }
            resolve({ admitted: true, ticket });
          },
          timer: setTimeout(() => {
            leave();
            resolve({ admitted: false, retryAfterSeconds });
          }, limits.queueWaitMs),
        };
        waiting.waiting.push(waiter);
        gone.addEventListener("abort", onGone, { once: true });
      });
    },

    settle(req, res) {
      const now = Date.now();
      const issued = issuedSessionKey(res);
      if (issued) remember(issued, now);
      const verdict = acceptedBy.get(res);
      const credential = verdict === undefined && res.statusCode !== 401 ? null : credentialKey(req.headers);
      if (!credential) return;
      if (verdict === true) remember(credential, now);
      else if (credential !== issued) accepted.delete(credential);
    },

    usage() {
      const totals: Record<PoolKind, { running: number; waiting: number; pools: number }> = {
        anonymous: { running: 0, waiting: 0, pools: 0 },
        principal: { running: 0, waiting: 0, pools: 0 },
        assets: { running: 0, waiting: 0, pools: 0 },
      };
      for (const [key, pool] of pools) {
        const total = totals[kinds.get(key)!];
        total.running += pool.running;
        total.waiting += pool.waiting.length;
        total.pools += 1;
      }
      return totals;
    },
  };
}
