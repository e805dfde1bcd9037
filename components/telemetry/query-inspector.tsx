"use client";
/**
 * The query inspector: what the last run cost and where its time went, as the server reported it
 * (docs/explorer.md, "The inspector"). Rows scanned are counted only while the inspector is open
 * (one more query on the engine), so a run made with it closed says so.
 */
import type { TQueryInspection } from "@/lib/contract/explorer";
import { useFormat } from "@/lib/client/format";

const STAGES = [
  { key: "compileMs", label: "Compile", hint: "KQL to SQL" },
  { key: "queueMs", label: "Queue", hint: "waiting for a place among running queries" },
  { key: "executeMs", label: "Execute", hint: "until the engine's first rows" },
  { key: "serializeMs", label: "Serialize", hint: "reading the rows as JSON" },
] as const;

export function QueryInspector({ inspection, roundTripMs }: { inspection: TQueryInspection | null; roundTripMs: number | null }) {
  const format = useFormat();
  const ms = (value: number | null) => (value === null ? "not reported" : `${format.number(value, { maximumFractionDigits: value < 10 ? 1 : 0 })} ms`);
  if (!inspection) {
    return <p className="text-sm text-fg-muted">Run a query to see what it scanned, what it cost and where its time went.</p>;
  }
  const total = STAGES.reduce((sum, stage) => sum + (inspection.stages[stage.key] ?? 0), 0);
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="query-inspector">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        <div>
          <dt className="text-xs text-fg-muted">Rows scanned</dt>
          <dd className="font-mono tabular-nums" data-testid="inspector-scanned">
            {inspection.rowsScanned === null ? "not counted (open the inspector, then run)" : format.number(inspection.rowsScanned)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-fg-muted">Rows returned</dt>
          <dd className="font-mono tabular-nums">{format.number(inspection.rowsReturned)}</dd>
        </div>
        <div>
          <dt className="text-xs text-fg-muted">Cost charged</dt>
          <dd className="font-mono tabular-nums" data-testid="inspector-cost">
            {inspection.cost === null ? "not reported" : `${format.number(inspection.cost, { maximumFractionDigits: 2 })} units`}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-fg-muted">Engine queries</dt>
          <dd className="font-mono tabular-nums">{inspection.queries}</dd>
        </div>
      </dl>
      <table className="w-full max-w-xl text-left text-sm" data-testid="inspector-stages">
        <caption className="sr-only">Time per stage of the last query</caption>
        <thead>
          <tr className="text-xs text-fg-muted">
            <th scope="col" className="py-1 font-medium">Stage</th>
            <th scope="col" className="py-1 text-right font-medium">Time</th>
            <th scope="col" className="w-1/2 py-1 font-medium">
              <span className="sr-only">Share</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {STAGES.map((stage) => {
            const value = inspection.stages[stage.key];
            return (
              <tr key={stage.key} className="border-t border-line">
                <th scope="row" className="py-1 font-normal">
                  {stage.label} <span className="text-xs text-fg-muted">({stage.hint})</span>
                </th>
                <td className="whitespace-nowrap py-1 text-right font-mono tabular-nums">{ms(value)}</td>
                <td className="py-1 pl-3" aria-hidden="true">
                  <div className="h-2 rounded bg-accent" style={{ width: `${total > 0 && value !== null ? Math.max(1, (value / total) * 100) : 0}%` }} />
                </td>
              </tr>
            );
          })}
          {roundTripMs !== null ? (
            <tr className="border-t border-line text-fg-muted">
              <th scope="row" className="py-1 font-normal">
                Round trip <span className="text-xs">(browser to server and back)</span>
              </th>
              <td className="whitespace-nowrap py-1 text-right font-mono tabular-nums">{ms(roundTripMs)}</td>
              <td />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
