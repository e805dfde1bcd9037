/**
 * The audit log's query (GET /api/audit): the filter, with days read in the reader's time zone
 * (docs/api.md, "The audit log"). The words for its codes are audit-labels.ts, apart, so the page
 * does not load zod for them. No server-only import.
 */
import { ZDate, ZPageQuery } from "./common";
import { isTimeZone } from "./time-zone";
import { z } from "./zod";

/** An IANA time zone name that this runtime knows ("Europe/Amsterdam", "UTC"). */
const ZTimeZone = z
  .string()
  .min(1)
  .max(64, "must be at most 64 characters")
  .refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Amsterdam")
  .meta({ description: "An IANA time zone name, e.g. Europe/Amsterdam." });

const ZDayOrInstant = z.union([ZDate, z.iso.datetime({ offset: true, message: "must be a day (YYYY-MM-DD) or an ISO instant" })]);

export const ZAuditQuery = ZPageQuery.extend({
  user: z.string().trim().max(320, "must be at most 320 characters").optional().meta({ description: "Part of the user's e-mail or name, any case." }),
  plantId: z.string().max(64).optional(),
  action: z.string().max(100).optional(),
  outcome: z.string().max(100).optional(),
  from: ZDayOrInstant.optional().meta({ description: "First day (in `tz`, inclusive) or instant (inclusive)." }),
  to: ZDayOrInstant.optional().meta({ description: "Last day (in `tz`, inclusive) or instant (exclusive)." }),
  tz: ZTimeZone.default("UTC").meta({ description: "The reader's time zone: how days are read and the CSV's times are written." }),
  format: z.enum(["json", "csv"]).default("json"),
});
export type TAuditQuery = z.output<typeof ZAuditQuery>;

