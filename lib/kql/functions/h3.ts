/**
 * H3 cells' hierarchy as ADX names it (docs/kql-functions.md, "Geospatial functions"): a token is
 * the H3 index in hexadecimal; its level, parent and children are bit arithmetic on the index (mode
 * 1 at bits 59–62, the resolution at 52–55, the base cell at 45–51, then a 3-bit digit per level,
 * 7 past the resolution). DuckDB calls these from udfs.ts; ClickHouse has H3 of its own (geo.ts).
 * Pure: no imports. Invalid input gives null.
 */

/** The twelve base cells that are pentagons: their digit 1 sub-sequence is deleted. */
const PENTAGONS = new Set([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117]);

const resolutionOf = (h: bigint) => Number((h >> 52n) & 15n);
const baseCell = (h: bigint) => Number((h >> 45n) & 127n);
const digitShift = (level: number) => BigInt((15 - level) * 3);
const digit = (h: bigint, level: number) => Number((h >> digitShift(level)) & 7n);

/** A token's index when it is a valid H3 cell (H3's isValidCell), else null. */
function cell(token: string): bigint | null {
  if (!/^[0-9a-fA-F]{1,16}$/.test(token)) return null;
  const h = BigInt(`0x${token}`);
  if (h >> 63n !== 0n || ((h >> 59n) & 15n) !== 1n || ((h >> 56n) & 7n) !== 0n || baseCell(h) >= 122) return null;
  const res = resolutionOf(h);
  let leading = 0;
  for (let level = 1; level <= 15; level++) {
    const d = digit(h, level);
    if (level > res ? d !== 7 : d === 7) return null;
    if (level <= res && leading === 0 && d !== 0) leading = d;
  }
  return PENTAGONS.has(baseCell(h)) && leading === 1 ? null : h;
}

const token = (h: bigint) => h.toString(16);

/** The cell at a coarser level: the resolution set, the digits past it 7. */
function toParent(h: bigint, level: number): bigint {
  let p = (h & ~(15n << 52n)) | (BigInt(level) << 52n);
  for (let l = level + 1; l <= 15; l++) p |= 7n << digitShift(l);
  return p;
}

export function h3Level(text: string): bigint | null {
  const h = cell(text);
  return h === null ? null : BigInt(resolutionOf(h));
}

export function h3Parent(text: string, level: bigint | null): string | null {
  const h = cell(text);
  if (h === null) return null;
  const res = level === null ? resolutionOf(h) - 1 : Number(level);
  return res >= 0 && res <= resolutionOf(h) ? token(toParent(h, res)) : null;
}

/** The children at a finer level, at most 5 levels down, in digit order (a pentagon's deleted digit 1 skipped). */
export function h3Children(text: string, level: bigint | null): string | null {
  const h = cell(text);
  if (h === null) return null;
  const from = resolutionOf(h);
  const to = level === null ? from + 1 : Number(level);
  if (!(to >= from && to <= 15 && to - from <= 5)) return null;
  let cells = [h];
  for (let l = from + 1; l <= to; l++) {
    cells = cells.flatMap((c) => {
      const centred = PENTAGONS.has(baseCell(c)) && Array.from({ length: l - 1 }, (_, i) => digit(c, i + 1)).every((d) => d === 0);
      const base = (c & ~(15n << 52n)) | (BigInt(l) << 52n);
      return [0, 1, 2, 3, 4, 5, 6].filter((d) => !(centred && d === 1)).map((d) => (base & ~(7n << digitShift(l))) | (BigInt(d) << digitShift(l)));
    });
  }
  return JSON.stringify(cells.map(token));
}
