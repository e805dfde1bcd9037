/**
 * Largest-Triangle-Three-Buckets (Steinarsson 2013): a line of n points reduced to `threshold`
 * points that keep its shape — the first and the last point, and from each of the buckets between
 * them the point that makes the largest triangle with the point kept before it and the average of
 * the next bucket. A lone spike on a quiet line makes the largest triangle of its bucket, so it is
 * kept; the line's envelope is not guaranteed (docs/explorer.md, "Automatic resolution": raw
 * samples get each bin's low and high from the engine for that).
 *
 * Used where a series has more points than the chart has pixel columns (about one point per column
 * is all a line can show; each extra point costs parsing and drawing). Pure, no DOM: the browser's
 * charts use it, and anything on the server that holds parsed points may.
 */

export interface Point {
  /** Milliseconds since the epoch (any increasing number). */
  x: number;
  y: number;
}

/**
 * `points` (sorted by x) reduced to at most `threshold` points, a subsequence of the input in its
 * order. Unchanged (the same array) when it has no more than `threshold` points; a threshold below
 * 3 is read as 3 (the first, the last and one between).
 */
export function lttb<P extends Point>(points: readonly P[], threshold: number): readonly P[] {
  const n = points.length;
  const keep = Math.max(3, Math.floor(threshold));
  if (n <= keep) return points;

  const out: P[] = [points[0]!];
  // The n − 2 points between the first and the last, in keep − 2 buckets of `every` points.
  const every = (n - 2) / (keep - 2);
  let kept = 0;
  for (let bucket = 0; bucket < keep - 2; bucket++) {
    // The next bucket's average (the last point alone after the last bucket).
    const nextFrom = Math.floor((bucket + 1) * every) + 1;
    const nextTo = Math.min(Math.floor((bucket + 2) * every) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let i = nextFrom; i < nextTo; i++) {
      avgX += points[i]!.x;
      avgY += points[i]!.y;
    }
    const count = nextTo - nextFrom;
    avgX /= count;
    avgY /= count;

    const from = Math.floor(bucket * every) + 1;
    const to = Math.floor((bucket + 1) * every) + 1;
    const a = points[kept]!;
    let best = from;
    let bestArea = -1;
    for (let i = from; i < to; i++) {
      const p = points[i]!;
      // Twice the triangle's area; the factor does not change which is largest.
      const area = Math.abs((a.x - avgX) * (p.y - a.y) - (a.x - p.x) * (avgY - a.y));
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    out.push(points[best]!);
    kept = best;
  }
  out.push(points[n - 1]!);
  return out;
}

/**
 * What a chart `width` pixel columns wide over [xMin, xMax] draws of `points` (sorted by x): the
 * points inside the span with a finite y, plus the nearest one on each side so the line runs to the
 * chart's edges, reduced by LTTB to one point per column when there are more.
 */
export function pointsForWidth<P extends Point>(points: readonly P[], width: number, xMin: number, xMax: number): readonly P[] {
  const inside: P[] = [];
  let before: P | undefined;
  let after: P | undefined;
  for (const p of points) {
    if (!Number.isFinite(p.y)) continue;
    if (p.x < xMin) before = p;
    else if (p.x > xMax) after ??= p;
    else inside.push(p);
  }
  const reduced = lttb(inside, width);
  if (!before && !after) return reduced;
  return [...(before ? [before] : []), ...reduced, ...(after ? [after] : [])];
}
