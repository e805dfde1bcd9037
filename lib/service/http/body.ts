import type { z } from "zod";
import { ServiceError, invalidInput, type FieldProblem } from "../errors";
import type { ServiceRequest } from "./types";

/** Turns zod issues into the `{ field, problem }` items of a 400's `data`. */
export function zodProblems(error: z.ZodError): FieldProblem[] {
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

/**
 * Reads the request body as JSON: 413 over the size limit, 415 for another media type, 400 for
 * an empty or malformed body. The checks come in that order, before any validation.
 */
export function readJsonBody(req: ServiceRequest): unknown {
  if (req.bodyTooLarge) throw new ServiceError("PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.");
  if (mediaType(req.headers["content-type"]) !== "application/json") {
    throw new ServiceError("UNSUPPORTED_MEDIA_TYPE", "The request body must be sent as Content-Type: application/json.");
  }
  if (!req.body || req.body.byteLength === 0) throw invalidInput("The request body is empty; a JSON object is expected.");
  try {
    return JSON.parse(new TextDecoder().decode(req.body));
  } catch {
    throw invalidInput("The request body is not valid JSON.", [{ field: "(body)", problem: "malformed JSON" }]);
  }
}

/** Reads an application/x-www-form-urlencoded body (the OAuth token endpoint). */
export function readFormBody(req: ServiceRequest): URLSearchParams | null {
  if (req.bodyTooLarge) throw new ServiceError("PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.");
  if (mediaType(req.headers["content-type"]) !== "application/x-www-form-urlencoded") return null;
  return new URLSearchParams(req.body ? new TextDecoder().decode(req.body) : "");
}
