/**
 * series_iir (docs/kql-functions.md, "Series filters"), for DuckDB (udfs.ts); ClickHouse folds the
 * same recurrence with arrayFold (series.ts). Pure: no imports.
 */

function numbers(json: string): number[] | null {
  try {
    const value = JSON.parse(json) as unknown;
    // A value that is not a number counts as 0, as ClickHouse's JSONExtract reads it.
    return Array.isArray(value) ? value.map((v) => (typeof v === "number" ? v : 0)) : null;
  } catch {
    return null;
  }
}

/**
 * The infinite impulse response filter: y[n] = (Σ b[k]·x[n−k] − Σ_{k≥1} a[k]·y[n−k]) / a[0], terms
 * before the series' start left out; null when an argument is not an array or a[0] is 0 or missing.
 * A value that is not finite is written as null.
 */
export function seriesIir(series: string, numerators: string, denominators: string): string | null {
  const [x, b, a] = [numbers(series), numbers(numerators), numbers(denominators)];
  if (!x || !b || !a || !a[0]) return null;
  const y: number[] = [];
  for (let n = 0; n < x.length; n++) {
    let sum = 0;
    for (let k = 0; k < b.length; k++) if (n - k >= 0) sum += b[k]! * x[n - k]!;
    let feedback = 0;
    for (let k = 1; k < a.length; k++) if (n - k >= 0) feedback += a[k]! * y[n - k]!;
    y.push((sum - feedback) / a[0]);
  }
  return `[${y.map((v) => (Number.isFinite(v) ? String(v) : "null")).join(",")}]`;
}
