/** How a plan reads in lists and how the list's filters (in the URL) match it. Pure. */
import type { Format } from "@/lib/client/format";
import type { TMaintenancePlan } from "@/modules/maintenance/contract/maintenance-plans";

export interface PlanFilters {
  asset: string;
  /** CALENDAR | METER | "" */
  trigger: string;
  /** enabled | disabled | "" */
  state: string;
  q: string;
}

export function matchesPlan(plan: TMaintenancePlan, filters: PlanFilters): boolean {
  if (filters.asset && plan.assetTagNumber !== filters.asset) return false;
  if (filters.trigger && plan.trigger.kind !== filters.trigger) return false;
  if (filters.state === "enabled" && !plan.enabled) return false;
  if (filters.state === "disabled" && plan.enabled) return false;
  const words = filters.q.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${plan.title} ${plan.assetTagNumber} ${plan.id}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

const UNIT_WORDS = { DAY: ["day", "days"], WEEK: ["week", "weeks"], MONTH: ["month", "months"] } as const;

export function triggerText(plan: Pick<TMaintenancePlan, "trigger">, format: Format): string {
  const trigger = plan.trigger;
  if (trigger.kind === "CALENDAR") {
    const [one, many] = UNIT_WORDS[trigger.unit];
    return trigger.every === 1 ? `every ${one}` : `every ${format.number(trigger.every)} ${many}`;
  }
  return `every ${format.number(trigger.every)} ${trigger.unit} of the meter`;
}
