"use client";
/**
 * The schema panel, as Azure Data Explorer shows it beside the editor: the tables and their
 * columns with types, and what the chosen plants' telemetry holds — data points with their units
 * and the keys of `DataMetadata` and `MessageMetadata`. Each name types itself into the query.
 */
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { TABLES, TABLE_NAMES } from "@/lib/kql/tables";
import type { Catalogue } from "./catalogue";
import { kqlString } from "./telemetry-api";
import { unitLabel } from "./units";

function Item({ text, insert, detail, onInsert }: { text: string; insert?: string; detail?: string; onInsert: (text: string) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onInsert(insert ?? text)}
        title={`Insert ${insert ?? text} into the query`}
        className="flex w-full items-baseline justify-between gap-2 rounded px-1.5 py-0.5 text-left font-mono text-xs hover:bg-surface-2"
      >
        <span className="min-w-0 wrap-anywhere">{text}</span>
        {detail ? <span className="shrink-0 font-sans text-fg-muted">{detail}</span> : null}
      </button>
    </li>
  );
}

function Group({ title, count, open = false, children }: { title: string; count?: number; open?: boolean; children: React.ReactNode }) {
  return (
    <details open={open} className="group">
      <summary className="cursor-pointer rounded px-1 py-1 text-sm font-medium hover:bg-surface-2">
        {title}
        {count !== undefined ? <span className="ml-1 font-normal text-fg-muted">({count})</span> : null}
      </summary>
      <ul className="mt-0.5 mb-1 ml-2 flex flex-col border-l border-line pl-1.5">{children}</ul>
    </details>
  );
}

export function SchemaPanel({
  catalogue,
  isLoading,
  error,
  onInsert,
}: {
  catalogue: Catalogue | undefined;
  isLoading: boolean;
  error: unknown;
  onInsert: (text: string) => void;
}) {
  return (
    <section aria-labelledby="schema-title" className="flex flex-col gap-1" data-testid="schema-panel">
      <h2 id="schema-title" className="mb-1 text-base font-semibold">
        Schema
      </h2>
      {TABLE_NAMES.map((table) => (
        <Group key={table} title={table} count={TABLES[table].columns.length} open={table === "States"}>
          {TABLES[table].columns.map((column) => (
            <Item key={column.name} text={column.name} detail={column.kqlType} onInsert={onInsert} />
          ))}
        </Group>
      ))}
      {isLoading ? (
        <div role="status" className="flex flex-col gap-1">
          <span className="sr-only">Loading data points…</span>
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : error ? (
        <p className="text-xs text-danger">Data points could not be listed: {errorMessage(error)}</p>
      ) : catalogue ? (
        <>
          <Group title="Data points" count={catalogue.names.length} open>
            {catalogue.names.map((name) => {
              const unit = catalogue.units.get(name);
              return <Item key={name} text={name} insert={kqlString(name)} detail={unit ? unitLabel(unit) : undefined} onInsert={onInsert} />;
            })}
          </Group>
          <Group title="DataMetadata keys" count={catalogue.dataMetadataKeys.length}>
            {catalogue.dataMetadataKeys.map((key) => (
              <Item key={key} text={`DataMetadata.${key}`} onInsert={onInsert} />
            ))}
          </Group>
          <Group title="MessageMetadata keys" count={catalogue.messageMetadataKeys.length}>
            {catalogue.messageMetadataKeys.map((key) => (
              <Item key={key} text={`MessageMetadata.${key}`} onInsert={onInsert} />
            ))}
          </Group>
          <p className="px-1 text-xs text-fg-muted">Data points and keys seen in the last 24 hours of the chosen plants.</p>
        </>
      ) : null}
    </section>
  );
}
