"use client";
/**
 * The query result as a table, paginated on the client: a result may hold 500,000 rows, and only
 * the visible page is handed to the table and rendered. Columns come from the result itself.
 */
import { useMemo, useState } from "react";
import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { Button } from "@/components/ui/button";
import type { QueryResult } from "./series";

const features = tableFeatures({});
type Row = unknown[];
const helper = createColumnHelper<typeof features, Row>();

export const RESULT_PAGE_SIZE = 100;

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function ResultTable({ result }: { result: QueryResult }) {
  const [pageIndex, setPageIndex] = useState(0);
  const pageCount = Math.max(1, Math.ceil(result.rows.length / RESULT_PAGE_SIZE));
  const page = Math.min(pageIndex, pageCount - 1);
  const data = useMemo(() => result.rows.slice(page * RESULT_PAGE_SIZE, (page + 1) * RESULT_PAGE_SIZE), [result.rows, page]);
  const columns = useMemo(
    () =>
      result.columns.map((column, index) =>
        helper.accessor((row: Row): unknown => row[index], {
          id: `${index}:${column.name}`,
          header: () => (
            <span title={`${column.columnType} / ${column.dataType ?? ""}`}>
              {column.name}
              <span className="ml-1 font-normal text-fg-muted">{column.columnType}</span>
            </span>
          ),
          cell: (info) => formatCell(info.getValue()),
        }),
      ),
    [result.columns],
  );
  const table = useTable({ features, columns, data });
  const numeric = result.columns.map((c) => ["real", "long", "int", "decimal"].includes(c.columnType));

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
