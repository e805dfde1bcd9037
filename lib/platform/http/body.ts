import type { z } from "zod";
import { ApiError, invalidInput, type FieldProblem } from "../../contract/errors";
import type { ServiceRequest } from "./types";

/** Turns zod issues into the `{ field, problem }` items of a 400's `data`. */
function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join(".") : "(body)",
    problem: issue.message,
  }));
}

/** Validates a value with a zod schema or throws 400 INVALID_INPUT listing each problem. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = zodProblems(result.error);
    const first = problems[0];
    throw invalidInput(first ? `Invalid ${what}: ${first.field}: ${first.problem}` : `Invalid ${what}.`, problems);
  }
  return result.data;
}

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Deepest nesting of arrays and objects a request body may have: far above any payload of the API. */
const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting depth of JSON text, counted on its bytes before it is parsed: whatever later walks
 * the value (validation, JSON.stringify for an idempotency hash) recurses, and 100,000 levels
 * overflow the stack. Brackets inside strings do not count.
 */
function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Reads the request body as JSON: 413 over the size limit, 415 for another media type, 400 for
 * an empty, malformed or too deeply nested body. The checks come in that order, before any validation.
 */
export function readJsonBody(req: ServiceRequest): unknown {
  if (req.bodyTooLarge) throw new ApiError("PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.");
  if (mediaType(req.headers["content-type"]) !== "application/json") {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "The request body must be sent as Content-Type: application/json.");
  }
  if (!req.body || req.body.byteLength === 0) throw invalidInput("The request body is empty; a JSON object is expected.");
  if (jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) {
    throw invalidInput(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, [{ field: "(body)", problem: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  try {
    return JSON.parse(new TextDecoder().decode(req.body));
  } catch {
    throw invalidInput("The request body is not valid JSON.", [{ field: "(body)", problem: "malformed JSON" }]);
  }
}

/** Reads an application/x-www-form-urlencoded body (the OAuth token endpoint). */
export function readFormBody(req: ServiceRequest): URLSearchParams | null {
  if (req.bodyTooLarge) throw new ApiError("PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.");
  if (mediaType(req.headers["content-type"]) !== "application/x-www-form-urlencoded") return null;
  return new URLSearchParams(req.body ? new TextDecoder().decode(req.body) : "");
}
