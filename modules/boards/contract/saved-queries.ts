/**
 * The plant's team library of saved queries (docs/boards.md, "The query library"): a KQL query
 * with a title, a description and tags, owned by who saved it, shared with everyone of the plant
 * who queries telemetry. Linked to by id (`?savedQuery=<id>`), so a link survives a rename.
 */
import { z } from "@/lib/contract/zod";
import { MAX_QUERY_LENGTH } from "@/lib/contract/telemetry";
import { DASHBOARD_LIMITS, TAG_PATTERN } from "@/lib/contract/dashboard-vocabulary";

const tag = z
  .string()
  .trim()
  .transform((text) => text.toLowerCase())
  .pipe(z.string().regex(TAG_PATTERN, "must be 1–30 letters, digits, spaces, '-' or '_', starting with a letter or digit"));

/** Body of POST …/saved-queries and PUT …/saved-queries/{id}. Tags are kept lower-case, each once. */
export const ZSavedQueryBody = z
  .strictObject({
    title: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
    description: z.string().trim().max(1000, "must be at most 1000 characters"),
    tags: z
      .array(tag)
      .max(DASHBOARD_LIMITS.maxTags, `at most ${DASHBOARD_LIMITS.maxTags} tags`)
      .transform((tags) => [...new Set(tags)]),
    query: z
      .string({ error: "is required" })
      .refine((text) => text.trim().length > 0, "must not be empty")
      .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
  })
  .meta({ id: "SavedQueryBody" });

const ZSavedQuery = z
  .object({
    id: z.number().int(),
    plantId: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    query: z.string(),
    owner: z.string(),
    createdAt: z.string(),
    updatedBy: z.string(),
    updatedAt: z.string(),
    /** When someone last ran it from the library (null: never). */
    lastRunAt: z.string().nullable(),
    lastRunBy: z.string().nullable(),
    /** Whether the signed-in user may change or delete it (its owner and admins). */
    canEdit: z.boolean(),
  })
  .meta({ id: "SavedQuery" });

export const ZSavedQueryList = z.object({ data: z.array(ZSavedQuery) });

/** GET …/saved-queries: `q` matches the title, the description or a tag (any case); `tag` one tag exactly. */
export const ZSavedQuerySearch = z.object({
  q: z.string().trim().max(120).optional(),
  tag: z.string().trim().toLowerCase().max(30).optional(),
});

export type TSavedQueryBody = z.output<typeof ZSavedQueryBody>;
export type TSavedQuery = z.infer<typeof ZSavedQuery>;
export type TSavedQueryList = z.infer<typeof ZSavedQueryList>;

export { matchesSearch } from "./library-search";
