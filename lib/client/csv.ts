/**
 * CSV in RFC 4180 form (comma, CRLF, quotes doubled) with a header row. Each cell is the project's
 * one `csvCell` (lib/contract/csv.ts): a text that a spreadsheet would run as a formula gets a
 * leading apostrophe, so an exported remark can never execute in Excel.
 */
import { csvCell } from "../contract/csv";

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(",")];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** Offers text as a file download (a BOM first, so Excel reads UTF-8 names correctly). */
export function downloadText(filename: string, text: string, type = "text/csv;charset=utf-8"): void {
  const blob = new Blob(["\uFEFF", text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
