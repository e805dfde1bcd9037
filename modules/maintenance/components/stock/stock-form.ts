/**
 * The stock-level form's checks: the quantity as the person types it in their language ("12,5" in
 * Rotterdam, "12.5" in Houston; no exponents), then exactly the shared `ZStockLevel` schema the
 * service validates with. `isShort` is three-way: left out (the service decides from the reorder
 * point), yes or no. Also: whether a count is plausible against the part's history, and how a
 * correction names the count it corrects. Pure. The contract module (and zod) is loaded when the
 * form is checked, not with the page (docs/architecture.md, "What the browser loads").
 */
import { ambiguousNumber, parseLocaleNumber } from "@/lib/client/format";
import type { TStockLevel, TStockLevelEntry } from "@/modules/maintenance/contract/maintenance";
import { loadMaintenanceContract } from "@/lib/client/lazy-contract";

type ShortChoice = "auto" | "yes" | "no";

export interface StockFormValues {
  quantity: string;
  unit: string;
  remark: string;
  isShort: ShortChoice;
}

export type StockFormErrors = Partial<Record<keyof StockFormValues, string>>;

export function toStockLevel(partId: string, values: StockFormValues, locale: string, remarkPrefix = ""): TStockLevel {
  const remark = [remarkPrefix, values.remark.trim()].filter(Boolean).join(": ");
  return {
    id: partId,
    quantity: parseLocaleNumber(values.quantity, locale) ?? Number.NaN,
    unit: values.unit as TStockLevel["unit"],
    remark: remark === "" ? null : remark,
    ...(values.isShort === "auto" ? {} : { isShort: values.isShort === "yes" }),
  };
}

/** `example`: a number written the reader's way (12,5 or 12.5), for the message. */
export async function validateStockForm(partId: string, values: StockFormValues, locale: string, example = "12.5", remarkPrefix = ""): Promise<StockFormErrors> {
  const { ZStockLevel } = await loadMaintenanceContract();
  const errors: StockFormErrors = {};
  const ambiguous = ambiguousNumber(values.quantity, locale);
  if (values.quantity.trim() === "") errors.quantity = "Enter the quantity counted.";
  else if (ambiguous) errors.quantity = ambiguous;
  else if (parseLocaleNumber(values.quantity, locale) === null) {
    errors.quantity = `Enter a plain number, such as ${example}; a decimal comma or point both work (no exponents, units or letters).`;
  }
  const parsed = ZStockLevel.safeParse(toStockLevel(partId, values, locale, remarkPrefix));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "quantity" || field === "unit" || field === "remark") && !errors[field]) {
        errors[field] =
          field === "quantity"
            ? issue.message.includes("whole number")
              ? `Enter a whole number: ${values.unit} are counted in whole items.`
              : "Enter a number of 0 or more."
            : issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
      }
    }
  }
  return errors;
}

/** A count this many times the last one (or a tenth of it) is asked about before it is saved… */
const PLAUSIBLE_FACTOR = 10;
/** …when it also differs by more than this: 1 → 18 gaskets is a delivery, not a typo. */
const PLAUSIBLE_MARGIN = 50;

export interface Implausible {
  /** The count compared with: the last one, or the largest on record when the last was 0. */
  reference: TStockLevelEntry;
  direction: "up" | "down";
}

/**
 * Whether `quantity` is a jump of more than ten times (and more than 50 units) against the part's
 * history (newest first). Running out (0) is always plausible; so is anything when nothing but
 * zeros was ever counted.
 */
export function plausibility(quantity: number, history: readonly TStockLevelEntry[]): Implausible | null {
  const last = history[0];
  if (!last || quantity === 0) return null;
  const reference = last.quantity > 0 ? last : history.reduce<TStockLevelEntry | null>((max, entry) => (entry.quantity > (max?.quantity ?? 0) ? entry : max), null);
  if (!reference) return null;
  if (Math.abs(quantity - reference.quantity) <= PLAUSIBLE_MARGIN) return null;
  if (quantity > reference.quantity * PLAUSIBLE_FACTOR) return { reference, direction: "up" };
  if (quantity * PLAUSIBLE_FACTOR < reference.quantity) return { reference, direction: "down" };
  return null;
}

const CORRECTION = /^Correction of the count of (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)\b/;

/** The start of a correction's remark: which count (by its submission time) it corrects. */
export function correctionPrefix(entry: TStockLevelEntry): string {
  return `Correction of the count of ${entry.submittedAt} (${entry.quantity} ${entry.unit})`;
}

/** The submission time of the count a remark says it corrects, or null. */
export function correctedAt(remark: string | null): string | null {
  return remark ? (CORRECTION.exec(remark)?.[1] ?? null) : null;
}

/** Which counts were corrected, and by which later entry (keyed by the corrected count's submission time). */
export function corrections(history: readonly TStockLevelEntry[]): Map<string, TStockLevelEntry> {
  const map = new Map<string, TStockLevelEntry>();
  for (const entry of history) {
    const target = correctedAt(entry.remark);
    if (target && !map.has(target)) map.set(target, entry);
  }
  return map;
}

/** A remark as people read it: a correction's machine-readable start becomes a sentence. */
export function readableRemark(remark: string | null, formatInstant: (iso: string) => string, formatNumber: (value: number) => string): string | null {
  if (!remark) return remark;
  const match = /^Correction of the count of (\S+) \((\d+(?:\.\d+)?) ([A-Z]+)\)(?:: ([\s\S]*))?$/.exec(remark);
  if (!match) return remark;
  const [, at, quantity, unit, why] = match;
  return `Corrects the count of ${formatInstant(at!)} (${formatNumber(Number(quantity))} ${unit})${why ? `: ${why}` : ""}`;
}
