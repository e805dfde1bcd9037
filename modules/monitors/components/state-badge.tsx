import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { TMonitor, TMonitorState } from "@/modules/monitors/contract/monitors";
import { SEVERITY_LABEL, type TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";

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

const SEVERITY_TONES: Record<TMonitorSeverity, BadgeTone> = { critical: "danger", warning: "warning", info: "neutral" };

/** A monitor's state, its severity and, while a window mutes it, "Muted". */
export function MonitorBadges({ monitor }: { monitor: Pick<TMonitor, "state" | "severity" | "mutedNow"> }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <MonitorStateBadge state={monitor.state} />
      <Badge tone={SEVERITY_TONES[monitor.severity]}>{SEVERITY_LABEL[monitor.severity]}</Badge>
      {monitor.mutedNow ? <Badge tone="neutral">Muted</Badge> : null}
    </span>
  );
}
