import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { TLookupValue, TTaskStatus } from "@/lib/upstream/schemas/maintenance";
import { STATUS_LABELS, STATUS_TONES } from "./status";

export function StatusBadge({ status }: { status: TTaskStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/**
 * Priorities are each company's own lookup values, listed most urgent first: the first reads as
 * danger, the second as warning, the rest neutral.
 */
export function priorityTone(priority: string, priorities: readonly TLookupValue[] | undefined): BadgeTone {
  const rank = (priorities ?? []).findIndex((entry) => entry.value === priority);
  return rank === 0 ? "danger" : rank === 1 ? "warning" : "neutral";
}

export function PriorityBadge({ priority, priorities }: { priority: string; priorities: readonly TLookupValue[] | undefined }) {
  // Labels are long ("P1 – Emergency (within 4 h)"): the badge shows the short value, the tooltip the label.
  const label = priorities?.find((entry) => entry.value === priority)?.label ?? priority;
  return (
    <Badge tone={priorityTone(priority, priorities)} title={`Priority: ${label}`}>
      <span className="sr-only">Priority:</span> {priority}
    </Badge>
  );
}

export function RoleBadge({ role, roles }: { role: string | null; roles: readonly TLookupValue[] | undefined }) {
  if (!role) return null;
  const label = roles?.find((entry) => entry.value === role)?.label ?? role;
  return (
    <Badge tone="neutral" title="Assigned to role">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="8" r="4" />
        <path d="M4 21a8 8 0 0 1 16 0" />
      </svg>
      <span className="sr-only">Assigned to:</span> {label}
    </Badge>
  );
}
