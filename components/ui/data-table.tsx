"use client";
/**
 * The one table of the dashboard, over @tanstack/react-table v9. It only displays: the page of rows
 * it is given is already filtered, sorted and paginated by whoever owns the data (the service, or a
 * page working over a whole fetched range). Sorting, visible columns and the page are controlled
 * state, so a page keeps them in its URL. Rows open a detail with a click or Enter; the rows are
 * one tab stop (roving tabindex: the arrow keys, Home and End move between them), so the pager is a
 * few Tabs away however long the page.
 */
import {
  columnVisibilityFeature,
  createColumnHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type RowData,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { Select } from "./field";
import { useScrollsSideways } from "./scroll-region";
import { TableSkeleton } from "./skeleton";
import { EmptyState, ErrorState } from "./states";

interface DataColumnMeta {
  /** Numbers align right so digits line up. */
  align?: "right";
  /** The column's name in the column chooser when its header is not plain text. */
  label?: string;
  /** Text that may wrap onto several lines (names, departments) instead of widening the table. */
  wrap?: boolean;
}

const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  rowPaginationFeature,
  columnMeta: {} as DataColumnMeta,
});

type DataTableFeatures = typeof dataTableFeatures;
// `any` value type: one table's columns hold strings, numbers and objects side by side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, any>;
export const columnHelper = <T extends RowData>() => createColumnHelper<DataTableFeatures, T>();

export const PAGE_SIZES = [25, 50, 100, 250] as const;

function resolve<T>(updater: Updater<T>, current: T): T {
  return typeof updater === "function" ? (updater as (old: T) => T)(current) : updater;
}

interface DataTableProps<T extends RowData> {
  /** Read by screen readers as the table's name. */
  caption: string;
  columns: DataColumn<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  page: number;
  pageSize: number;
  totalPages: number;
  onPageChange: (page: number, pageSize: number) => void;
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  columnVisibility?: ColumnVisibilityState;
  onColumnVisibilityChange?: (visibility: ColumnVisibilityState) => void;
  onRowOpen?: (row: T) => void;
  isLoading?: boolean;
  /** Rows are shown but a newer page is on its way (keeps the old page visible, dimmed). */
  isFetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  toolbar?: ReactNode;
}

export function DataTable<T extends RowData>({
  caption,
  columns,
  rows,
  getRowId,
  page,
  pageSize,
  totalPages,
  onPageChange,
  sorting = [],
  onSortingChange,
  columnVisibility = {},
  onColumnVisibilityChange,
  onRowOpen,
  isLoading,
  isFetching,
  error,
  onRetry,
  empty,
  toolbar,
}: DataTableProps<T>) {
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId,
    manualSorting: true,
    manualPagination: true,
    pageCount: totalPages,
    enableSorting: Boolean(onSortingChange),
    enableSortingRemoval: true,
    state: { sorting, columnVisibility, pagination: { pageIndex: page - 1, pageSize } },
    onSortingChange: (updater) => onSortingChange?.(resolve(updater, sorting)),
    onColumnVisibilityChange: (updater) => onColumnVisibilityChange?.(resolve(updater, columnVisibility)),
    onPaginationChange: (updater) => {
      const next = resolve(updater, { pageIndex: page - 1, pageSize });
      onPageChange(next.pageIndex + 1, next.pageSize);
    },
  });

  const visibleColumnCount = table.getVisibleLeafColumns().length;
  const rowCount = table.getRowModel().rows.length;
  const [activeRow, setActiveRow] = useState(0);
  // The row that takes the table's one tab stop (the last one if the page got shorter).
  const tabRow = Math.min(activeRow, Math.max(rowCount - 1, 0));
  const hintId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const scrollsSideways = useScrollsSideways(scroller);

  function rowKeys(event: KeyboardEvent<HTMLTableRowElement>, index: number, original: T) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onRowOpen?.(original);
      return;
    }
    const target = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: rowCount - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(rowCount - 1, target));
    setActiveRow(next);
    (event.currentTarget.parentElement?.children[next] as HTMLElement | undefined)?.focus();
  }

  return (
    <div className="overflow-hidden rounded-lg border border-line bg-surface shadow-sm">
      {toolbar || onColumnVisibilityChange ? (
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
          <div className="flex flex-wrap items-center gap-2">{toolbar}</div>
          {onColumnVisibilityChange ? (
            <ColumnChooser
              columns={table
                .getAllLeafColumns()
                .filter((column) => column.getCanHide())
                .map((column) => ({
                  id: column.id,
                  label: column.columnDef.meta?.label ?? (typeof column.columnDef.header === "string" ? column.columnDef.header : column.id),
                  visible: column.getIsVisible(),
                  toggle: (visible: boolean) => column.toggleVisibility(visible),
                }))}
            />
          ) : null}
        </div>
      ) : null}
      <div
        ref={scroller}
        className={cn("relative overflow-x-auto transition-opacity", isFetching && !isLoading && "opacity-60")}
        aria-busy={isLoading || isFetching}
        {...(scrollsSideways ? { tabIndex: 0, role: "region", "aria-label": caption } : {})}
      >
        {onRowOpen ? (
          <p id={hintId} className="sr-only">
            Up and down arrows move between rows; Enter opens one.
          </p>
        ) : null}
        <table className="w-full border-collapse text-sm" aria-describedby={onRowOpen ? hintId : undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-surface-2 text-left">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const meta = header.column.columnDef.meta;
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      className={cn("px-3 py-2 align-middle font-semibold whitespace-nowrap text-fg-muted", meta?.align === "right" && "text-right")}
                    >
                      {header.isPlaceholder ? null : header.column.getCanSort() ? (
                        // A block-level flex button: an inline one takes its baseline from the icon,
                        // which lifted right-aligned headers (icon first) above the others.
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className={cn("flex w-full items-center gap-1 rounded hover:text-fg", meta?.align === "right" && "justify-end")}
                        >
                          {meta?.align === "right" ? <SortIcon direction={sorted} /> : null}
                          <table.FlexRender header={header} />
                          {meta?.align === "right" ? null : <SortIcon direction={sorted} />}
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {error ? (
              <tr>
                <td colSpan={visibleColumnCount}>
                  <ErrorState error={error} onRetry={onRetry} />
                </td>
              </tr>
            ) : isLoading ? (
              <tr>
                <td colSpan={visibleColumnCount}>
                  <TableSkeleton columns={Math.min(visibleColumnCount, 6)} />
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={visibleColumnCount}>{empty ?? <EmptyState title="Nothing here" />}</td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row, index) => (
                <tr
                  key={row.id}
                  tabIndex={onRowOpen ? (index === tabRow ? 0 : -1) : undefined}
                  onClick={onRowOpen ? () => onRowOpen(row.original) : undefined}
                  onFocus={onRowOpen ? () => setActiveRow(index) : undefined}
                  onKeyDown={onRowOpen ? (event) => rowKeys(event, index, row.original) : undefined}
                  className={cn("border-t border-line", onRowOpen && "cursor-pointer hover:bg-surface-2 focus-visible:bg-surface-2")}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={cn(
                        "px-3 py-2 align-top",
                        cell.column.columnDef.meta?.wrap ? "min-w-32 wrap-break-word" : "whitespace-nowrap",
                        cell.column.columnDef.meta?.align === "right" && "text-right tabular-nums",
                      )}
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pager page={page} pageSize={pageSize} totalPages={totalPages} onChange={onPageChange} />
    </div>
  );
}

function SortIcon({ direction }: { direction: false | "asc" | "desc" }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 12 12" className={cn("h-3 w-3", !direction && "opacity-40")} fill="currentColor">
      {direction !== "desc" ? <path d="M6 2 9.5 6h-7z" /> : null}
      {direction !== "asc" ? <path d="M6 10 2.5 6h7z" /> : null}
    </svg>
  );
}

interface ChooserColumn {
  id: string;
  label: string;
  visible: boolean;
  toggle: (visible: boolean) => void;
}

function ColumnChooser({ columns }: { columns: ChooserColumn[] }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 5h16M4 12h16M4 19h16" strokeLinecap="round" />
        </svg>
        Columns
      </Button>
      {open ? (
        <fieldset
          className="absolute right-0 z-20 mt-1 w-56 rounded-md border border-line bg-surface p-2 shadow-lg"
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpen(false);
          }}
        >
          <legend className="sr-only">Visible columns</legend>
          {columns.map((column) => (
            <label key={column.id} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-surface-2">
              <input type="checkbox" checked={column.visible} onChange={(event) => column.toggle(event.target.checked)} className="accent-accent" />
              {column.label}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

function Pager({ page, pageSize, totalPages, onChange }: { page: number; pageSize: number; totalPages: number; onChange: (page: number, pageSize: number) => void }) {
  const last = Math.max(totalPages, 1);
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-3 py-2 text-sm">
      <label className="flex shrink-0 items-center gap-2 whitespace-nowrap text-fg-muted">
        Rows per page
        <Select
          className="h-8 w-24!"
          value={String(pageSize)}
          onChange={(event) => onChange(1, Number(event.target.value))}
          options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
        />
      </label>
      <div className="flex items-center gap-2">
        <span className="text-fg-muted" aria-live="polite">
          Page {Math.min(page, last)} of {last}
        </span>
        <Button size="sm" onClick={() => onChange(1, pageSize)} disabled={page <= 1} aria-label="First page">
          «
        </Button>
        <Button size="sm" onClick={() => onChange(page - 1, pageSize)} disabled={page <= 1}>
          Previous
        </Button>
        <Button size="sm" onClick={() => onChange(page + 1, pageSize)} disabled={page >= last}>
          Next
        </Button>
        <Button size="sm" onClick={() => onChange(last, pageSize)} disabled={page >= last} aria-label="Last page">
          »
        </Button>
      </div>
    </nav>
  );
}

/** `?sort=doneDate.desc` ⇄ react-table's sorting state (one column: what people share in links). */
export function parseSortParam(value: string | null): SortingState {
  if (!value) return [];
  const [id, direction] = value.split(".");
  return id ? [{ id, desc: direction !== "asc" }] : [];
}

export function sortParam(sorting: SortingState): string | null {
  const first = sorting[0];
  return first ? `${first.id}.${first.desc ? "desc" : "asc"}` : null;
}

/** `?cols=-department,-isFinal` lists hidden columns; visible is the default. */
export function parseHiddenColumns(value: string | null): ColumnVisibilityState {
  const state: ColumnVisibilityState = {};
  for (const id of (value ?? "").split(",")) if (id) state[id] = false;
  return state;
}

export function hiddenColumnsParam(visibility: ColumnVisibilityState): string | null {
  const hidden = Object.entries(visibility)
    .filter(([, visible]) => visible === false)
    .map(([id]) => id);
  return hidden.length ? hidden.join(",") : null;
}
