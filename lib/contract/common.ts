/**
 * Building blocks shared by every payload of the service (docs/api.md §2–§4).
 * No server-only import: the browser's forms validate with these too.
 */
import { z } from "./zod";
import { ID_PATTERN, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "./vocabulary";

export { ID_PATTERN, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "./vocabulary";

export const ZId = z
  .string()
  .regex(ID_PATTERN, "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit")
  .meta({ id: "Id", description: `Identifier: \`${ID_PATTERN.source}\`.` });

/** A real calendar date, `YYYY-MM-DD`. */
export const ZDate = z.iso.date("must be a real date in the form YYYY-MM-DD").meta({ id: "Date", description: "Calendar date, `YYYY-MM-DD`." });

/** An instant, ISO 8601 UTC with milliseconds. */
export const ZTimestamp = z.iso.datetime({ precision: 3 }).meta({ id: "Timestamp", description: "ISO 8601 UTC instant with milliseconds." });

/** A decimal number carried as a string (the spec's hour figures). */
export const ZDecimalString = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "must be a decimal number")
  .meta({ id: "DecimalString", description: "Non-negative decimal number carried as a string, e.g. `\"2.5\"`." });

/** Query-string integer: digits only (no "1e2", "0x10" or blanks), then range-checked. */
function queryInteger(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^-?\d{1,16}$/.test(value) ? Number(value) : value),
    z.number({ error: "must be an integer" }).int("must be an integer").min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );
}

/** `page` and `pageSize` of every paginated GET (docs/api.md §3). */
export const ZPageQuery = z.object({
  page: queryInteger(1, Number.MAX_SAFE_INTEGER).default(1).meta({ description: "One-based page index; a page past the end returns `data: []`." }),
  pageSize: queryInteger(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT).meta({ description: "Records per page, 1–1000." }),
});

/** The paginated envelope around a list of records. */
export function paginated<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      page: z.number().int().min(1),
      totalPages: z.number().int().min(0).meta({ description: "ceil(total / pageSize); 0 when there are no records." }),
      pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX),
    })
    .meta({ id, description: "Paginated envelope." });
}

export const ZWriteResult = z
  .object({
    status: z.literal("SUCCESS"),
    code: z.literal("SUCCESS"),
    message: z.null(),
    data: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ id: "WriteResult", description: "Outcome of a successful write; failures use ErrorBody with the HTTP status of the error." });

export const ZFieldProblem = z
  .object({ field: z.string(), problem: z.string() })
  .loose()
  .meta({ id: "FieldProblem", description: "One problem of a 400; may carry more members, e.g. `allowedValues`." });

export const ZErrorBody = z
  .object({
    status: z.literal("ERROR"),
    code: z.string().meta({ description: "Machine-readable code, e.g. INVALID_INPUT, PLANT_NOT_FOUND." }),
    message: z.string(),
    data: z.array(z.unknown()),
  })
  .meta({ id: "ErrorBody", description: "Body of every non-200 answer of the service." });

export type TWriteResult = z.infer<typeof ZWriteResult>;
export type TErrorBody = z.infer<typeof ZErrorBody>;
export interface TPage<T> {
  data: T[];
  page: number;
  totalPages: number;
  pageSize: number;
}
