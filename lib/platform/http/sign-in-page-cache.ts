/**
 * The sign-in page, rendered once and then answered from memory (docs/architecture.md, "A fair
 * front door"): every anonymous visitor and every page redirect ends at `/signin`, and a profile of
 * bench:load's anonymous bursts put Next's render of it (router, React, gzip, the garbage it leaves)
 * at about half of the server's busy time. The page is the same for everyone who is not signed in —
 * it depends on its query (`callbackUrl`, `error`), the build and the configuration only — except
 * for the CSP nonce, which must be fresh in every answer: a kept page is answered with its nonce
 * replaced by a new one, in the CSP header and wherever the page carries it.
 *
 * Kept only what certainly has no other per-request part: a GET without a session cookie and
 * without Next's client-navigation headers (those get the page's RSC payload instead), a query of
 * `callbackUrl` and `error` alone, a 200 HTML answer that carries a nonce-based CSP, no cookie and
 * no content encoding (the kept page's nonce must be replaceable, so Next is asked for it
 * uncompressed).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { hasSessionCookie } from "./sign-in-gate";

export const SIGN_IN_PATH = "/signin";

/** Distinct queries kept (least recently used first out): a query per page the redirect came from. */
const MAX_ENTRIES = 64;
const MAX_QUERY_LENGTH = 512;
const MAX_PAGE_BYTES = 256 * 1024;
/** Next's client navigation asks for the page's RSC payload with these (its answer's Vary names them). */
const NAVIGATION_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url"];
const PAGE_PARAMS = new Set(["callbackUrl", "error"]);
/** Per connection or per answer: the front door and Node write their own. */
const NOT_KEPT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "strict-transport-security"]);
const NONCE = /'nonce-([^']+)'/;

interface KeptPage {
  headers: OutgoingHttpHeaders;
  body: string;
  nonce: string;
}

export interface SignInPageCache {
  /** Whether the request may be answered from, or kept in, the cache: null when not; else its key. */
  keyOf(req: IncomingMessage, pathname: string, query: string): string | null;
  /** Answers the request from the cache with a fresh nonce; false when nothing is kept for it. */
  serve(key: string, req: IncomingMessage, res: ServerResponse): boolean;
  /** Before the request goes to Next: keeps the page Next writes, when it qualifies. */
  capture(key: string, req: IncomingMessage, res: ServerResponse): void;
}

/** 16 random bytes in base64, as proxy.ts makes its nonces. */
function freshNonce(): string {
  return randomBytes(16).toString("base64");
}

function queryKey(query: string): string | null {
  if (query === "" || query === "?") return "";
  if (query.length > MAX_QUERY_LENGTH) return null;
  for (const name of new URLSearchParams(query).keys()) if (!PAGE_PARAMS.has(name)) return null;
  return query;
}

/** writeHead's headers argument (an object, or a flat or paired array) as an object. */
function headersOf(given: unknown): OutgoingHttpHeaders {
  if (!given || typeof given !== "object") return {};
  if (!Array.isArray(given)) return given as OutgoingHttpHeaders;
  const pairs: OutgoingHttpHeaders = {};
  if (given.every((item) => Array.isArray(item))) for (const [name, value] of given as [string, string][]) pairs[name] = value;
  else for (let at = 0; at + 1 < given.length; at += 2) pairs[String(given[at])] = given[at + 1] as string;
  return pairs;
}

export function createSignInPageCache(): SignInPageCache {
  const kept = new Map<string, KeptPage>();

  function keep(key: string, page: KeptPage) {
    kept.delete(key);
    kept.set(key, page);
    if (kept.size > MAX_ENTRIES) kept.delete(kept.keys().next().value!);
  }

  return {
    keyOf(req, pathname, query) {
      if (pathname !== SIGN_IN_PATH || (req.method !== "GET" && req.method !== "HEAD")) return null;
      if (hasSessionCookie(req.headers.cookie) || NAVIGATION_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
      return queryKey(query);
    },

    serve(key, req, res) {
      const page = kept.get(key);
      if (!page) return false;
      keep(key, page);
      const nonce = freshNonce();
      const body = page.body.replaceAll(page.nonce, nonce);
      const headers: OutgoingHttpHeaders = { ...page.headers, "content-length": Buffer.byteLength(body) };
      headers["content-security-policy"] = String(page.headers["content-security-policy"]).replaceAll(page.nonce, nonce);
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },

    capture(key, req, res) {
      if (req.method !== "GET") return;
      // Uncompressed, so that the kept page's nonce can be replaced; this one visitor's page is not gzipped.
      delete req.headers["accept-encoding"];
      const chunks: Buffer[] = [];
      let size = 0;
      let headers: OutgoingHttpHeaders | null = null;
      const take = (chunk: unknown, encoding: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === "function") return;
        const buffer = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
        size += buffer.length;
        if (size <= MAX_PAGE_BYTES) chunks.push(buffer);
      };
      const { writeHead, write, end } = res;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        // What Node sends: the headers set so far, and those given here over them.
        headers = { ...res.getHeaders(), ...headersOf(typeof args[1] === "string" ? args[2] : args[1]) };
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as ServerResponse["writeHead"];
      res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
        take(chunk, rest[0]);
        return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      } as ServerResponse["write"];
      res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
        take(chunk, rest[0]);
        return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
      } as ServerResponse["end"];
      res.once("finish", () => {
        const sent = headers ?? res.getHeaders();
        const policy = sent["content-security-policy"];
        const nonce = typeof policy === "string" ? NONCE.exec(policy)?.[1] : undefined;
        const type = String(sent["content-type"] ?? "");
        if (res.statusCode !== 200 || !nonce || !type.startsWith("text/html") || sent["set-cookie"] !== undefined || sent["content-encoding"] !== undefined) return;
        if (size > MAX_PAGE_BYTES) return;
        const body = Buffer.concat(chunks).toString("utf8");
        if (!body.includes(nonce)) return;
        const keptHeaders: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(sent)) if (value !== undefined && !NOT_KEPT.has(name.toLowerCase())) keptHeaders[name.toLowerCase()] = value;
        keep(key, { headers: keptHeaders, body, nonce });
      });
    },
  };
}
