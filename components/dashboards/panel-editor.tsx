"use client";
/**
 * One panel's form while the board is edited: title, chart, unit, width and the KQL query. A `$name`
 * the board has no variable for is named at the query before the panel is applied (the server
 * checks it again at save).
 */
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { PANEL_CHARTS, type TPanelChart } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboardDefinition, TDashboardPanel } from "@/lib/contract/dashboards";
import { variablesUsed } from "@/lib/kql/variables";
import { newPanelId } from "./board-state";

const CHART_LABEL: Record<TPanelChart, string> = { line: "Lines over time", column: "Columns", bar: "Bars", pie: "Pie", table: "Table", stat: "Big number" };
const CHART_OPTIONS = PANEL_CHARTS.map((value) => ({ value, label: CHART_LABEL[value] }));
const WIDTH_OPTIONS = [
  { value: "half", label: "Half the board" },
  { value: "full", label: "The whole width" },
];

export function PanelEditor({
  initial,
  definition,
  onApply,
  onCancel,
}: {
  initial: TDashboardPanel;
  definition: TDashboardDefinition;
  onApply: (panel: TDashboardPanel) => void;
  onCancel: () => void;
}) {
  const [panel, setPanel] = useState(initial);
  const [errors, setErrors] = useState<{ title?: string; query?: string }>({});
  const isNew = initial.id === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const declared = new Set(definition.variables.map((variable) => variable.name));
    const unknown = variablesUsed(panel.query).find((use) => use.name !== "__bin" && !declared.has(use.name));
    const found = {
      title: panel.title.trim() ? undefined : "must not be empty",
      query: !panel.query.trim() ? "must not be empty" : unknown ? `$${unknown.name} (line ${unknown.line}, column ${unknown.column}) is not a variable of this dashboard: add it under Variables` : undefined,
    };
    setErrors(found);
    if (found.title || found.query) return;
    const id = isNew ? newPanelId(panel.title, definition.panels.map((other) => other.id)) : panel.id;
    onApply({ ...panel, id, title: panel.title.trim(), unit: panel.unit.trim() });
  };

  return (
    <form onSubmit={submit} className="space-y-3 rounded-md border border-line bg-surface-2 p-3" aria-label={isNew ? "New panel" : `Panel ${initial.title}`}>
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
      <Field label="Query (KQL)" error={errors.query} hint='e.g. States | where DeviceId == $device | summarize avg(todouble(Value)) by bin(Timestamp, $__bin), Name'>
        {(control) => (
          <Textarea
            {...control}
            value={panel.query}
            rows={6}
            spellCheck={false}
            className="font-mono text-xs"
            onChange={(event) => setPanel({ ...panel, query: event.target.value })}
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary">
          {isNew ? "Add to board" : "Apply"}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
