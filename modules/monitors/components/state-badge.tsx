import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { TMonitorState } from "@/modules/monitors/contract/monitors";

const STATE_LABELS: Record<TMonitorState, { label: string; tone: BadgeTone }> = {
  ok: { label: "OK", tone: "success" },
  firing: { label: "Firing", tone: "warning" },
  failing: { label: "Failing", tone: "danger" },
  disabled: { label: "Off", tone: "neutral" },
};

/** A monitor's state in words: OK, firing, failing or off. */
export function MonitorStateBadge({ state }: { state: TMonitorState }) {
  return <Badge tone={STATE_LABELS[state].tone}>{STATE_LABELS[state].label}</Badge>;
}
