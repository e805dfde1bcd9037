"use client";
/**
 * The board's own settings while it is edited: title, description, the range and refresh it opens
 * with, and its variables (a device, a data point or free text, named in the queries as `$name`).
 */
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import {
  BOARD_RANGES,
  BOARD_RANGE_LABEL,
  BOARD_REFRESH,
  BOARD_REFRESH_LABEL,
  DASHBOARD_LIMITS,
  VARIABLE_KINDS,
  VARIABLE_NAME,
  type TBoardRange,
  type TBoardRefresh,
  type TVariableKind,
} from "@/lib/contract/dashboard-vocabulary";
import type { TDashboardDefinition, TDashboardVariable } from "@/modules/boards/contract/boards";

const KIND_LABEL: Record<TVariableKind, string> = { device: "A device of the plant", dataPoint: "A data point", text: "Free text" };
const NEW_LABEL: Record<TVariableKind, string> = { device: "Device", dataPoint: "Data point", text: "Value" };
const KIND_OPTIONS = VARIABLE_KINDS.map((value) => ({ value, label: KIND_LABEL[value] }));

function freeName(taken: readonly string[]): string {
  for (const base of ["device", "point", "value"]) if (!taken.includes(base)) return base;
  let n = 2;
  while (taken.includes(`value${n}`)) n++;
  return `value${n}`;
}

export function BoardSettings({ definition, onChange }: { definition: TDashboardDefinition; onChange: (next: TDashboardDefinition) => void }) {
  const setVariable = (index: number, variable: TDashboardVariable) => onChange({ ...definition, variables: definition.variables.map((other, i) => (i === index ? variable : other)) });
  const names = definition.variables.map((variable) => variable.name);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Field label="Title" error={definition.title.trim() ? undefined : "must not be empty"}>
          {(control) => <Input {...control} value={definition.title} maxLength={120} onChange={(event) => onChange({ ...definition, title: event.target.value })} />}
        </Field>
        <Field label="Description">
          {(control) => <Input {...control} value={definition.description} maxLength={500} onChange={(event) => onChange({ ...definition, description: event.target.value })} />}
        </Field>
        <Field label="Opens with the range">
          {(control) => (
            <Select {...control} value={definition.range} options={BOARD_RANGES.map((value) => ({ value, label: BOARD_RANGE_LABEL[value] }))} onChange={(event) => onChange({ ...definition, range: event.target.value as TBoardRange })} />
          )}
        </Field>
        <Field label="Refreshes">
          {(control) => (
            <Select {...control} value={definition.refresh} options={BOARD_REFRESH.map((value) => ({ value, label: BOARD_REFRESH_LABEL[value] }))} onChange={(event) => onChange({ ...definition, refresh: event.target.value as TBoardRefresh })} />
          )}
        </Field>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">Variables</legend>
        <p className="text-xs text-fg-muted">A query names a variable as $name; its value goes in as a quoted text literal. $__bin is a bin width that suits the range.</p>
        {definition.variables.map((variable, index) => (
          <div key={index} className="grid grid-cols-1 items-end gap-2 rounded-md border border-line p-2 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_1fr_auto]" data-testid="variable-row">
            <Field label="Name ($name)" error={VARIABLE_NAME.test(variable.name) ? (names.indexOf(variable.name) !== index ? "is used twice" : undefined) : "a letter, then letters, digits or _"}>
              {(control) => <Input {...control} value={variable.name} maxLength={32} onChange={(event) => setVariable(index, { ...variable, name: event.target.value })} />}
            </Field>
            <Field label="Label">
              {(control) => <Input {...control} value={variable.label} maxLength={60} onChange={(event) => setVariable(index, { ...variable, label: event.target.value })} />}
            </Field>
            <Field label="Values">
              {(control) => <Select {...control} value={variable.kind} options={KIND_OPTIONS} onChange={(event) => setVariable(index, { ...variable, kind: event.target.value as TVariableKind })} />}
            </Field>
            <Field label="Default" hint={variable.kind === "text" ? undefined : "empty: the plant's first"}>
              {(control) => (
                <Input
                  {...control}
                  value={variable.default ?? ""}
                  maxLength={DASHBOARD_LIMITS.maxValueLength}
                  onChange={(event) => setVariable(index, { ...variable, default: event.target.value === "" && variable.kind !== "text" ? null : event.target.value })}
                />
              )}
            </Field>
            <Button variant="danger" onClick={() => onChange({ ...definition, variables: definition.variables.filter((_, other) => other !== index) })} aria-label={`Remove variable ${variable.name}`}>
              Remove
            </Button>
          </div>
        ))}
        <Button
          disabled={definition.variables.length >= DASHBOARD_LIMITS.maxVariables}
          onClick={() => {
            const name = freeName(names);
            const kind: TVariableKind = name === "device" ? "device" : name === "point" ? "dataPoint" : "text";
            onChange({ ...definition, variables: [...definition.variables, { name, label: NEW_LABEL[kind], kind, default: null }] });
          }}
        >
          Add variable
        </Button>
      </fieldset>
    </div>
  );
}
