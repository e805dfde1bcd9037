/**
 * Lookup values (activity kinds, roles, priorities, failure/cause/remedy codes): kept per
 * customer, read through the plant's customer. The list groups them by kind in the order of
 * LOOKUP_KINDS (lib/contract/vocabulary.ts; LOOKUP_KIND_ORDER), then by their own position.
 */
import type { TPage } from "@/lib/contract/common";
import type { TLookupKind, TLookupValue, TLookupValuesQuery } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb } from "@/lib/platform/sql";
import type { Pager, Params } from "./page";

export interface LookupReads {
  listLookupValues(plantId: string, query: TLookupValuesQuery): Promise<TPage<TLookupValue>>;
  allowedLookupValues(plantId: string, kind: TLookupKind): Promise<string[]>;
}

const LOOKUP_KIND_ORDER = `CASE kind WHEN 'activityKind' THEN 0 WHEN 'assignedToRole' THEN 1 WHEN 'priority' THEN 2
  WHEN 'failureCode' THEN 3 WHEN 'causeCode' THEN 4 ELSE 5 END`;

export function lookupReads(engine: SqlDb, page: Pager): LookupReads {
  return {
    listLookupValues(plantId, query) {
      const params: Params = { plantId };
      const where = ["customer_id = (SELECT customer_id FROM plants WHERE id = @plantId)"];
      if (query.kind) {
        where.push("kind = @kind");
        params.kind = query.kind;
      }
      return page({ table: "lookup_values" }, where, params, "kind, value, label", `${LOOKUP_KIND_ORDER}, position, value`, query, (rows) =>
        rows as unknown as TLookupValue[],
      );
    },

    async allowedLookupValues(plantId, kind) {
      const found = await engine.all<{ value: string }>(
        `SELECT value FROM lookup_values WHERE kind = @kind AND customer_id = (SELECT customer_id FROM plants WHERE id = @plantId) ORDER BY position, value`,
        { kind, plantId },
      );
      return found.map((row) => row.value);
    },
  };
}
