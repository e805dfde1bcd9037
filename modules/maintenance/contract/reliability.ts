/**
 * The reliability record (docs/api.md, "Reliability"): failures, downtime, MTTR, MTBF and
 * availability of a plant and its assets over a window of days, from the job records. An extension
 * of the maintenance interface. No server-only import.
 */
import { z } from "@/lib/contract/zod";
import { ZDate } from "@/lib/contract/common";
import { RELIABILITY_MAX_DAYS } from "@/lib/contract/vocabulary";


export const ZReliabilityQuery = z
  .object({
    startDate: ZDate.meta({ description: "First day of the window (00:00 UTC)." }),
    endDate: ZDate.meta({ description: "Last day of the window (to 24:00 UTC); not before startDate." }),
    assetTagNumber: z.string().optional().meta({ description: "Only this asset and its components." }),
  })
  .refine((q) => q.startDate <= q.endDate, { message: "must not be after endDate", path: ["startDate"] })
  .refine((q) => Date.parse(q.endDate) - Date.parse(q.startDate) < RELIABILITY_MAX_DAYS * 86_400_000, { message: `the window must be at most ${RELIABILITY_MAX_DAYS} days`, path: ["endDate"] });

const ZReliabilityFigures = z
  .object({
    failures: z.number().int().meta({ description: "Job records in the window whose close-out carried a failureCode." }),
    downtimeHours: z.number().meta({ description: "Sum of those jobs' downtimeHours (default their totalTimeUsedInHours)." }),
    mttrHours: z.number().nullable().meta({ description: "downtimeHours ÷ failures; null without failures." }),
    mtbfHours: z.number().nullable().meta({ description: "(window hours − downtimeHours) ÷ failures; null without failures." }),
    availability: z.number().meta({ description: "(window hours − downtimeHours) ÷ window hours, at least 0." }),
    failureCodes: z.array(z.object({ code: z.string(), count: z.number().int() })).meta({ description: "Most first, then by code." }),
  })
  .meta({ id: "ReliabilityFigures" });

export const ZReliability = z
  .object({
    startDate: ZDate,
    endDate: ZDate,
    windowHours: z.number(),
    assetTagNumber: z.string().nullable(),
    plant: ZReliabilityFigures.meta({ description: "The plant's (or the asked asset's, with its components) figures: each job once." }),
    assets: z
      .array(ZReliabilityFigures.extend({ assetTagNumber: z.string(), name: z.string() }))
      .meta({ description: "Each asset with a failure in the window, its components' jobs counted with its own; most failures first." }),
    months: z
      .array(ZReliabilityFigures.extend({ month: z.string(), windowHours: z.number() }))
      .meta({ description: "The plant's (or asset's) figures per calendar month of the window, each month cut to the window." }),
  })
  .meta({ id: "Reliability", description: "Answer of GET reliability (extension)." });

export type TReliabilityFigures = z.infer<typeof ZReliabilityFigures>;
export type TReliability = z.infer<typeof ZReliability>;
