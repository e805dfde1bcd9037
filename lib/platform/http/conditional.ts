/**
 * Conditional GET (RFC 9110 §8.8.3, §13.1.2) for the service's JSON reads: a GET's 200 answer
 * carries a strong ETag, a hash of its bytes, and a request whose `If-None-Match` names that tag is
 * answered 304 with no body. The answer is still computed (the tag is of the bytes, not of a
 * version of the data, so it can never be stale), but it is neither sent again nor read again: the
 * dashboard's remote client keeps each answer it has validated and revalidates it this way
 * (lib/upstream/answer-cache.ts). docs/api.md §3 documents it for every client. A HEAD gets the
 * same headers as its GET.
 */
import { createHash } from "node:crypto";
import type { ServiceRequest, ServiceResponse } from "./types";

/** No shared cache keeps the answer; the client that asked may, provided it revalidates each time. */
const REVALIDATE_EACH_TIME = "private, no-cache";

function entityTag(body: string): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Whether `If-None-Match` names this tag: `*`, or one of a comma-separated list, weak tags compared weakly. */
function noneMatchNames(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}

/** The answer to a GET (or HEAD) with its ETag, or 304 when the client already holds these bytes. */
export function conditionalGet(req: ServiceRequest, response: ServiceResponse): ServiceResponse {
  if ((req.method !== "GET" && req.method !== "HEAD") || response.status !== 200 || typeof response.body !== "string") return response;
  const etag = entityTag(response.body);
  const headers: Record<string, string> = { ...response.headers, etag, "cache-control": REVALIDATE_EACH_TIME };
  if (!noneMatchNames(req.headers["if-none-match"], etag)) return { ...response, headers };
  delete headers["content-type"];
  return { status: 304, headers, body: "" };
}
