"use client";
/**
 * The query result as a table, paginated on the client: a result may hold 500,000 rows, and only
 * the visible page is handed to the table and rendered. Columns come from the result itself.
 */
import Link from "next/link";
import { useMemo, useState } from "react";
import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { Button } from "@/components/ui/button";
import type { QueryResult } from "./series";
import { columnTitle } from "./column-title";

const features = tableFeatures({});
type Row = unknown[];
const helper = createColumnHelper<typeof features, Row>();

const RESULT_PAGE_SIZE = 100;

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const instantFormats = new Map<string, Intl.DateTimeFormat>();

/** A datetime cell on the chosen clock, sortable and unambiguous: `2026-11-22 10:27:00.000`. */
function formatInstantCell(value: unknown, timeZone: string): string {
  if (typeof value !== "string") return formatCell(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  if (timeZone === "UTC") return new Date(ms).toISOString().slice(0, 23).replace("T", " ");
  let format = instantFormats.get(timeZone);
  if (!format) {
    // Swedish writes dates the ISO way (2026-11-22 10:27:00).
    format = new Intl.DateTimeFormat("sv-SE", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    instantFormats.set(timeZone, format);
  }
  return `${format.format(ms)}.${String(ms % 1000).padStart(3, "0")}`;
}

/** A link offered on a row (an alarm → "Create task"). */
export interface RowAction {
  href: string;
  label: string;
  /** Spoken name of the link, naming the row. */
  name: string;
}

export function ResultTable({ result, timeZone = "UTC", rowAction }: { result: QueryResult; timeZone?: string; rowAction?: (row: unknown[]) => RowAction | null }) {
  const [pageIndex, setPageIndex] = useState(0);
  const pageCount = Math.max(1, Math.ceil(result.rows.length / RESULT_PAGE_SIZE));
  const page = Math.min(pageIndex, pageCount - 1);
  const data = useMemo(() => result.rows.slice(page * RESULT_PAGE_SIZE, (page + 1) * RESULT_PAGE_SIZE), [result.rows, page]);
  const columns = useMemo(() => {
    const fromResult = result.columns.map((column, index) =>
      helper.accessor((row: Row): unknown => row[index], {
        id: `${index}:${column.name}`,
        header: () => (
          <span title={`${column.columnType} / ${column.dataType ?? ""}`}>
            {columnTitle(column.name)}
            <span className="ml-1 font-normal text-fg-muted">
              {column.columnType}
              {column.columnType === "datetime" ? ` · ${timeZone}` : ""}
            </span>
          </span>
        ),
        cell: (info) => (column.columnType === "datetime" ? formatInstantCell(info.getValue(), timeZone) : formatCell(info.getValue())),
      }),
    );
    if (!rowAction) return fromResult;
    const action = helper.display({
      id: "row-action",
      header: () => <span className="sr-only">Actions</span>,
      cell: (info) => {
        const link = rowAction(info.row.original);
        return link ? (
          <Link href={link.href} aria-label={link.name} className="font-sans font-medium whitespace-nowrap text-accent hover:underline">
            {link.label}
          </Link>
        ) : null;
      },
    });
    return [action, ...fromResult];
  }, [result.columns, timeZone, rowAction]);
  const table = useTable({ features, columns, data });
  const numeric = [...(rowAction ? [false] : []), ...result.columns.map((c) => ["real", "long", "int", "decimal"].includes(c.columnType))];

  return (
    <div className="flex min-h-0 flex-col gap-2">
      <div className="overflow-auto rounded-md border border-line" tabIndex={0} aria-label="Query result rows" role="region">
        <table className="min-w-full border-collapse text-sm" data-testid="result-table">
          <thead className="sticky top-0 bg-surface-2">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" className="whitespace-nowrap border-b border-line px-3 py-2 text-left font-semibold">
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="odd:bg-surface even:bg-canvas">
                {row.getAllCells().map((cell, i) => (
                  <td
                    key={cell.id}
                    className={`max-w-md truncate whitespace-nowrap border-b border-line px-3 py-1.5 font-mono text-xs ${numeric[i] ? "text-right tabular-nums" : ""}`}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="flex flex-wrap items-center gap-2 text-sm" aria-label="Result pages">
        <Button size="sm" onClick={() => setPageIndex(0)} disabled={page === 0}>
          First
        </Button>
        <Button size="sm" onClick={() => setPageIndex(page - 1)} disabled={page === 0}>
          Previous
        </Button>
        <span aria-live="polite">
          Page {page + 1} of {pageCount} · rows {result.rows.length === 0 ? 0 : page * RESULT_PAGE_SIZE + 1}–
          {Math.min(result.rows.length, (page + 1) * RESULT_PAGE_SIZE)} of {result.rows.length.toLocaleString("en-GB")}
        </span>
        <Button size="sm" onClick={() => setPageIndex(page + 1)} disabled={page >= pageCount - 1}>
          Next
        </Button>
        <Button size="sm" onClick={() => setPageIndex(pageCount - 1)} disabled={page >= pageCount - 1}>
          Last
        </Button>
      </nav>
    </div>
  );
}
