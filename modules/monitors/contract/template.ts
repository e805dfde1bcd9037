/**
 * `{Column}` in a monitor's task title and description: replaced by the firing row's value of that
 * column. `{{` and `}}` write a brace. Values are plain text (the task is shown as text, never as
 * markup), without control characters, each cut to VALUE_LIMIT, and the whole result to the field's
 * limit, so a row can never make a task the service refuses. Pure: the editor checks with it too.
 */

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const VALUE_LIMIT = 200;

/** The column names a template refers to. */
export function templateColumns(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) if (match[1]) names.add(match[1]);
  return [...names];
}

/** A result value as a person reads it in a task. */
export function valueText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "number") text = Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
  else if (typeof value === "string") text = value;
  else text = JSON.stringify(value);
  text = text.replace(/\p{Cc}/gu, " ");
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT - 1)}…` : text;
}

export function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** The template with the row's values in place of `{Column}`; an unknown name stays as written. */
export function fillTemplate(template: string, row: Record<string, unknown>, limit: number): string {
  const filled = template.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return name !== undefined && Object.hasOwn(row, name) ? valueText(row[name]) : whole;
  });
  return clip(filled, limit);
}
