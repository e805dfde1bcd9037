import "server-only";
/**
 * The remote service's GET answers this dashboard has already validated, kept so that an unchanged
 * answer is neither sent again nor parsed and validated again: the next call for the same path
 * names the held answer's ETag in `If-None-Match`, and the service's 304 hands the held copy back
 * (conditional GET, lib/platform/http/conditional.ts). Nothing is ever served without
 * asking the service, so nothing can be stale, and every check of the caller (session, role,
 * plant) runs before the cache is consulted. A service that sends no ETag is simply not cached.
 *
 * Bounded by the length of the held JSON text (UPSTREAM_CACHE_MB; 0 turns it off; the parsed
 * values take a few times that), least recently used first out. Held values are shared between callers: read them, never change them.
 */

interface HeldAnswer {
  etag: string;
  json: string;
  value: unknown;
  headers: Record<string, string>;
}

interface AnswerCache {
  get(key: string): HeldAnswer | undefined;
  set(key: string, answer: HeldAnswer): void;
  delete(key: string): void;
  /** Characters of JSON held now. */
  readonly bytes: number;
}

export function createAnswerCache(maxBytes: number): AnswerCache {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
  const held = new Map<string, HeldAnswer>();
  let bytes = 0;
  const remove = (key: string) => {
    const answer = held.get(key);
    if (!answer) return;
    held.delete(key);
    bytes -= answer.json.length;
  };
  return {
    get(key) {
      const answer = held.get(key);
      if (answer) {
        held.delete(key);
        held.set(key, answer);
      }
      return answer;
    },
    set(key, answer) {
      remove(key);
      // An answer larger than a quarter of the budget would push out everything else for one page.
      if (answer.json.length > maxBytes / 4) return;
      held.set(key, answer);
      bytes += answer.json.length;
      for (const oldest of held.keys()) {
        if (bytes <= maxBytes) break;
        remove(oldest);
      }
    },
    delete: remove,
    get bytes() {
      return bytes;
    },
  };
}
