"use client";
/**
 * One panel's form while the board is edited: title, chart, unit, width and the KQL query, in the
 * explorer's KQL editor (completion, error marks; the board's `$name`s and `$__bin`, `$__range`,
 * `$__from`, `$__to` are completed after `$` and read as values). A query the editor marks invalid,
 * or a `$name` the board has no variable for, is named before the panel is applied (the server
 * checks the names again at save).
 */
import dynamic from "next/dynamic";
import { useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { PANEL_CHARTS, type TPanelChart } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboardDefinition, TDashboardPanel } from "@/modules/boards/contract/boards";
import { BUILTIN_VARIABLES, isBuiltinVariable, variablesUsed } from "@/lib/kql/variables";
import { newPanelId } from "./board-state";
import { LibraryPicker } from "@/modules/library/components/library-picker";

const KqlEditor = dynamic(() => import("@/components/telemetry/kql-editor"), {
  ssr: false,
  loading: () => <Skeleton className="h-28 w-full" />,
});
const NO_PROBLEMS: never[] = [];

const CHART_LABEL: Record<TPanelChart, string> = { line: "Lines over time", column: "Columns", bar: "Bars", pie: "Pie", table: "Table", stat: "Big number" };
const CHART_OPTIONS = PANEL_CHARTS.map((value) => ({ value, label: CHART_LABEL[value] }));
const WIDTH_OPTIONS = [
  { value: "half", label: "Half the board" },
  { value: "full", label: "The whole width" },
];

export function PanelEditor({
  plantId,
  initial,
  definition,
  names = [],
  onApply,
  onCancel,
}: {
  plantId: string;
  initial: TDashboardPanel;
  definition: TDashboardDefinition;
  /** The plant's data point names, offered inside strings (when the board has loaded them). */
  names?: readonly string[];
  onApply: (panel: TDashboardPanel) => void;
  onCancel: () => void;
}) {
  const [panel, setPanel] = useState(initial);
  const [errors, setErrors] = useState<{ title?: string; query?: string }>({});
  const isNew = initial.id === "";
  const variables = useMemo(() => [...definition.variables.map((variable) => variable.name), ...BUILTIN_VARIABLES], [definition.variables]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const declared = new Set(definition.variables.map((variable) => variable.name));
    const unknown = variablesUsed(panel.query).find((use) => !isBuiltinVariable(use.name) && !declared.has(use.name));
    // The editor's own check (its chunk is loaded by now): an invalid query would fail on the board.
    const { diagnostics } = await import("@/components/telemetry/kql-services");
    const [invalid] = panel.query.trim() && !unknown ? diagnostics(panel.query, variables) : [];
    const found = {
      title: panel.title.trim() ? undefined : "must not be empty",
      query: !panel.query.trim()
        ? "must not be empty"
        : unknown
          ? `$${unknown.name} (line ${unknown.line}, column ${unknown.column}) is not a variable of this dashboard: add it under Variables`
          : invalid
            ? `${invalid.message} (marked in the query)`
            : undefined,
    };
    setErrors(found);
    if (found.title || found.query) return;
    const id = isNew ? newPanelId(panel.title, definition.panels.map((other) => other.id)) : panel.id;
    onApply({ ...panel, id, title: panel.title.trim(), unit: panel.unit.trim() });
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-3 rounded-md border border-line bg-surface-2 p-3" aria-label={isNew ? "New panel" : `Panel ${initial.title}`}>
      <h3 className="text-sm font-semibold">{isNew ? "New panel" : `Edit panel “${initial.title}”`}</h3>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-4">
        <Field label="Panel title" error={errors.title}>
          {(control) => <Input {...control} value={panel.title} maxLength={120} onChange={(event) => setPanel({ ...panel, title: event.target.value })} />}
        </Field>
        <Field label="Chart">
          {(control) => <Select {...control} value={panel.chart} options={CHART_OPTIONS} onChange={(event) => setPanel({ ...panel, chart: event.target.value as TPanelChart })} />}
        </Field>
        <Field label="Unit" hint="e.g. °C, bar; empty for none">
          {(control) => <Input {...control} value={panel.unit} maxLength={24} onChange={(event) => setPanel({ ...panel, unit: event.target.value })} />}
        </Field>
        <Field label="Width">
          {(control) => <Select {...control} value={panel.width} options={WIDTH_OPTIONS} onChange={(event) => setPanel({ ...panel, width: event.target.value as "half" | "full" })} />}
        </Field>
      </div>
      <div className="space-y-1">
        <p className="text-sm font-medium">Query (KQL)</p>
        <LibraryPicker plantId={plantId} onPick={(saved) => setPanel((current) => ({ ...current, query: saved.query, title: current.title.trim() ? current.title : saved.title.slice(0, 120) }))} />
        <KqlEditor
          value={panel.query}
          onChange={(query) => setPanel((current) => ({ ...current, query }))}
          onRun={() => undefined}
          names={names}
          problems={NO_PROBLEMS}
          label="Query (KQL)"
          variables={variables}
        />
        <p className="text-xs text-fg-muted">
          e.g. <code>States | where DeviceId == $device | summarize avg(todouble(Value)) by bin(Timestamp, $__bin)</code>. Type <kbd>$</kbd> for the board&apos;s variables and{" "}
          <code>$__bin</code>, <code>$__range</code>, <code>$__from</code>, <code>$__to</code>.
        </p>
        {errors.query ? (
          <p role="alert" className="text-sm text-danger wrap-anywhere" data-testid="panel-query-error">
            Query: {errors.query}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary">
          {isNew ? "Add to board" : "Apply"}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
