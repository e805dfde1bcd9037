import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { LookupLabels } from "@/modules/maintenance/client/maintenance";
import type { TTaskStatus } from "@/modules/maintenance/contract/maintenance";
import { STATUS_LABELS, STATUS_TONES } from "./status";

export function StatusBadge({ status }: { status: TTaskStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/**
 * Priorities are each company's own lookup values, listed most urgent first: the first reads as
 * danger, the second as warning, the rest neutral.
 */
function priorityTone(priority: string, labels: Pick<LookupLabels, "values">): BadgeTone {
  const rank = labels.values("priority").findIndex((entry) => entry.value === priority);
  return rank === 0 ? "danger" : rank === 1 ? "warning" : "neutral";
}

export function PriorityBadge({ priority, labels }: { priority: string; labels: Pick<LookupLabels, "label" | "values"> }) {
  return (
    <Badge tone={priorityTone(priority, labels)} wrap title={`Priority code ${priority}`}>
      <span className="sr-only">Priority:</span> {labels.label("priority", priority)}
    </Badge>
  );
}

export function RoleBadge({ role, labels }: { role: string | null; labels: Pick<LookupLabels, "label"> }) {
  if (!role) return null;
  return (
    <Badge tone="neutral" wrap title="Assigned to role">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-3 w-3 shrink-0" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="8" r="4" />
        <path d="M4 21a8 8 0 0 1 16 0" />
      </svg>
      <span className="sr-only">Assigned to:</span> {labels.label("assignedToRole", role)}
    </Badge>
  );
}
