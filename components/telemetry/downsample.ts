/**
 * Downsampling of a time series to the pixel width of the chart that draws it (M4 aggregation:
 * for every pixel column keep the first, the lowest, the highest and the last point).
 *
 * WHY M4: a line drawn through those four points per column is pixel-identical to the line drawn
 * through every point, so 500,000 raw points become at most 4 × width points without hiding a
 * spike — LTTB would be smoother but can drop a one-sample alarm peak, which is exactly what an
 * engineer looks for. Pure and allocation-light so it can run on every resize or zoom.
 */

export interface Point {
  /** Milliseconds since the epoch. */
  x: number;
  y: number;
}

/**
 * Reduces `points` (sorted by x ascending) to at most four per pixel column of a chart `width`
 * pixels wide spanning [xMin, xMax]. Points outside the span are dropped except the nearest one on
 * each side, so the line still runs to the chart's edges. Points whose y is not finite are skipped.
 */
export function downsampleM4(points: readonly Point[], width: number, xMin: number, xMax: number): Point[] {
  const columns = Math.max(1, Math.floor(width));
  const span = xMax - xMin;
  if (!(span > 0)) return points.filter((p) => Number.isFinite(p.y));

  const out: Point[] = [];
  let before: Point | undefined;
  let after: Point | undefined;

  let column = -1;
  let first: Point | undefined;
  let min: Point | undefined;
  let max: Point | undefined;
  let last: Point | undefined;

  const flush = () => {
    if (!first || !min || !max || !last) return;
    // Emit in x order, without repeating a point that plays two roles.
    const picked = [first, min, max, last].sort((a, b) => a.x - b.x);
    let previous: Point | undefined;
    for (const p of picked) {
      if (p !== previous) out.push(p);
      previous = p;
    }
  };

  for (const p of points) {
    if (!Number.isFinite(p.y)) continue;
    if (p.x < xMin) {
      before = p;
      continue;
    }
    if (p.x > xMax) {
      after ??= p;
      continue;
    }
    const c = Math.min(columns - 1, Math.floor(((p.x - xMin) / span) * columns));
    if (c !== column) {
      flush();
      column = c;
      first = min = max = last = p;
      continue;
    }
    last = p;
    if (p.y < min!.y) min = p;
    if (p.y > max!.y) max = p;
  }
  flush();

  if (before) out.unshift(before);
  if (after) out.push(after);
  return out;
}
