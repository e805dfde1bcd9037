/**
 * THE cell of every CSV the project writes (the browser's exports: job history, the explorer; the
 * server's: the audit log), so that no export can carry a formula. RFC 4180 quoting, and a text
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return — which spreadsheet
 * programs read as a formula (OWASP, "CSV injection") — gets a leading apostrophe. Numbers stay
 * numbers: `-3` is a value, never a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (typeof value !== "number" && typeof value !== "bigint" && typeof value !== "boolean" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
