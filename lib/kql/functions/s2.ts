/**
 * S2 cells as ADX names them (docs/kql-functions.md, "Geospatial functions"): a cell id is S2's
 * 64-bit id (3 bits of cube face, 2 bits per level along the Hilbert curve, then a 1 and zeros), its
 * token the id in hexadecimal without trailing zeros. The projection is S2's quadratic one. DuckDB
 * calls these from udfs.ts; ClickHouse spells the same curve a level at a time
 * (geo.ts; chdb has no S2 functions). Pure: no imports. Invalid input gives null.
 */

const MAX_LEVEL = 30;
const MAX_SIZE = 1 << MAX_LEVEL;
const LOOKUP_BITS = 4;
const SWAP = 1;
const INVERT = 2;
const POS_TO_IJ = [
  [0, 1, 3, 2],
  [0, 2, 3, 1],
  [3, 2, 0, 1],
  [3, 1, 0, 2],
];
const POS_TO_ORIENTATION = [SWAP, 0, 0, INVERT | SWAP];
/** S2's Hilbert-curve lookup tables: 4 bits of i and j with an orientation ↔ 8 bits of position. */
const LOOKUP_POS = new Array<number>(1 << (2 * LOOKUP_BITS + 2));
const LOOKUP_IJ = new Array<number>(1 << (2 * LOOKUP_BITS + 2));

function initLookup(level: number, i: number, j: number, origin: number, pos: number, orientation: number): void {
  if (level === LOOKUP_BITS) {
    const ij = (i << LOOKUP_BITS) + j;
    LOOKUP_POS[(ij << 2) + origin] = (pos << 2) + orientation;
    LOOKUP_IJ[(pos << 2) + origin] = (ij << 2) + orientation;
    return;
  }
  const r = POS_TO_IJ[orientation]!;
  for (let index = 0; index < 4; index++) initLookup(level + 1, (i << 1) + (r[index]! >> 1), (j << 1) + (r[index]! & 1), origin, (pos << 2) + index, orientation ^ POS_TO_ORIENTATION[index]!);
}
for (const orientation of [0, SWAP, INVERT, SWAP | INVERT]) initLookup(0, 0, 0, orientation, 0, orientation);

type Vec = [number, number, number];

const RAD = Math.PI / 180;

function faceUvToXyz(face: number, u: number, v: number): Vec {
  switch (face) {
    case 0: return [1, u, v];
    case 1: return [-u, 1, v];
    case 2: return [-u, -v, 1];
    case 3: return [-1, -v, -u];
    case 4: return [v, -1, -u];
    default: return [v, u, -1];
  }
}

function xyzToFaceUv([x, y, z]: Vec): [number, number, number] {
  const [ax, ay, az] = [Math.abs(x), Math.abs(y), Math.abs(z)];
  let face = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  if ([x, y, z][face]! < 0) face += 3;
  switch (face) {
    case 0: return [face, y / x, z / x];
    case 1: return [face, -x / y, z / y];
    case 2: return [face, -x / z, -y / z];
    case 3: return [face, z / x, y / x];
    case 4: return [face, z / y, -x / y];
    default: return [face, -y / z, -x / z];
  }
}

const stToUv = (s: number) => (s >= 0.5 ? (1 / 3) * (4 * s * s - 1) : (1 / 3) * (1 - 4 * (1 - s) * (1 - s)));
const uvToSt = (u: number) => (u >= 0 ? 0.5 * Math.sqrt(1 + 3 * u) : 1 - 0.5 * Math.sqrt(1 - 3 * u));
const stToIj = (s: number) => Math.max(0, Math.min(MAX_SIZE - 1, Math.floor(MAX_SIZE * s)));

function fromFaceIj(face: number, i: number, j: number): bigint {
  let n = BigInt(face) << 60n;
  let bits = face & SWAP;
  const mask = (1 << LOOKUP_BITS) - 1;
  for (let k = 7; k >= 0; k--) {
    bits += ((i >> (k * LOOKUP_BITS)) & mask) << (LOOKUP_BITS + 2);
    bits += ((j >> (k * LOOKUP_BITS)) & mask) << 2;
    bits = LOOKUP_POS[bits]!;
    n |= BigInt(bits >> 2) << BigInt(k * 2 * LOOKUP_BITS);
    bits &= SWAP | INVERT;
  }
  return n * 2n + 1n;
}

function toFaceIj(id: bigint): [number, number, number] {
  const face = Number(id >> 61n);
  let bits = face & SWAP;
  let i = 0;
  let j = 0;
  for (let k = 7; k >= 0; k--) {
    const nbits = k === 7 ? MAX_LEVEL - 7 * LOOKUP_BITS : LOOKUP_BITS;
    bits += (Number((id >> BigInt(k * 2 * LOOKUP_BITS + 1)) & BigInt((1 << (2 * nbits)) - 1))) << 2;
    bits = LOOKUP_IJ[bits]!;
    i += (bits >> (LOOKUP_BITS + 2)) << (k * LOOKUP_BITS);
    j += ((bits >> 2) & mask4) << (k * LOOKUP_BITS);
    bits &= SWAP | INVERT;
  }
  return [face, i, j];
}
const mask4 = (1 << LOOKUP_BITS) - 1;

const lsbForLevel = (level: number) => 1n << BigInt(2 * (MAX_LEVEL - level));
const parent = (id: bigint, level: number) => (id & -lsbForLevel(level)) | lsbForLevel(level);

function levelOf(id: bigint): number {
  let zeros = 0;
  while (zeros < 64 && ((id >> BigInt(zeros)) & 1n) === 0n) zeros++;
  return MAX_LEVEL - (zeros >> 1);
}

/** A token's cell id, or null when it names no valid cell. */
function fromToken(token: string): bigint | null {
  if (!/^[0-9a-fA-F]{1,16}$/.test(token)) return null;
  const id = BigInt(`0x${token.padEnd(16, "0")}`);
  if (id === 0n || id >> 61n > 5n) return null;
  let zeros = 0;
  while (((id >> BigInt(zeros)) & 1n) === 0n) zeros++;
  return zeros % 2 === 0 ? id : null;
}

const toToken = (id: bigint) => id.toString(16).padStart(16, "0").replace(/0+$/, "");

const lonLat = ([x, y, z]: Vec): [number, number] => [Math.atan2(y, x) / RAD, Math.atan2(z, Math.hypot(x, y)) / RAD];

export function s2PointToCell(lon: number, lat: number, level: number | bigint): string | null {
  const l = Number(level);
  if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90 && l >= 0 && l <= MAX_LEVEL)) return null;
  const [face, u, v] = xyzToFaceUv([Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)]);
  return toToken(parent(fromFaceIj(face, stToIj(uvToSt(u)), stToIj(uvToSt(v))), l));
}

/** The cell's centre (S2CellId::GetCenterSiTi). */
function center(id: bigint): Vec {
  const [face, i, j] = toFaceIj(id);
  const leaf = (id & 1n) === 1n;
  const delta = leaf ? 1 : ((BigInt(i) ^ (id >> 2n)) & 1n) === 1n ? 2 : 0;
  return faceUvToXyz(face, stToUv((2 * i + delta) / 2 ** 31), stToUv((2 * j + delta) / 2 ** 31));
}

const point = (v: Vec) => JSON.stringify({ type: "Point", coordinates: lonLat(v) });

export function s2CellToCentralPoint(token: string): string | null {
  const id = fromToken(token);
  return id === null ? null : point(center(id));
}

export function s2CellToPolygon(token: string): string | null {
  const id = fromToken(token);
  if (id === null) return null;
  const [face, i, j] = toFaceIj(id);
  const size = 1 << (MAX_LEVEL - levelOf(id));
  const [i0, j0] = [i & -size, j & -size];
  const [u0, u1] = [stToUv(i0 / MAX_SIZE), stToUv((i0 + size) / MAX_SIZE)];
  const [v0, v1] = [stToUv(j0 / MAX_SIZE), stToUv((j0 + size) / MAX_SIZE)];
  // S2Cell::GetVertex's order: (u0, v0), (u1, v0), (u1, v1), (u0, v1).
  const ring = [faceUvToXyz(face, u0, v0), faceUvToXyz(face, u1, v0), faceUvToXyz(face, u1, v1), faceUvToXyz(face, u0, v1)].map(lonLat);
  return JSON.stringify({ type: "Polygon", coordinates: [[...ring, ring[0]]] });
}

/** The leaf cell at (i, j) of a face, or across its edge when (i, j) lies beyond it (S2CellId::FromFaceIJWrap). */
function fromFaceIjWrap(face: number, i: number, j: number): bigint {
  const ci = Math.max(-1, Math.min(MAX_SIZE, i));
  const cj = Math.max(-1, Math.min(MAX_SIZE, j));
  const limit = 1 + Number.EPSILON;
  const u = Math.max(-limit, Math.min(limit, (2 * (ci - MAX_SIZE / 2) + 1) / MAX_SIZE));
  const v = Math.max(-limit, Math.min(limit, (2 * (cj - MAX_SIZE / 2) + 1) / MAX_SIZE));
  const [nface, nu, nv] = xyzToFaceUv(faceUvToXyz(face, u, v));
  return fromFaceIj(nface, stToIj(0.5 * (nu + 1)), stToIj(0.5 * (nv + 1)));
}

/**
 * ADX's order of the eight neighbours, as indexes into S2CellId::AppendAllNeighbors' order
 * (below-left, below-right, below, above, left, right, above-left, above-right in the face's i, j):
 * the order the page prints for cell 89c259.
 */
export const S2_NEIGHBOUR_ORDER = [7, 0, 1, 2, 3, 5, 4, 6] as const;

/** The cell's eight neighbours of its level (fewer at a cube corner). */
export function s2CellNeighbors(token: string): string | null {
  const id = fromToken(token);
  if (id === null) return null;
  const level = levelOf(id);
  const [face, i, j] = toFaceIj(id);
  const size = 1 << (MAX_LEVEL - level);
  const [ci, cj] = [i & -size, j & -size];
  const cell = (ni: number, nj: number, same: boolean) => parent(same ? fromFaceIj(face, ni, nj) : fromFaceIjWrap(face, ni, nj), level);
  const out: bigint[] = [];
  for (let k = -size; ; k += size) {
    let sameFace: boolean;
    if (k < 0) sameFace = cj + k >= 0;
    else if (k >= size) sameFace = cj + k < MAX_SIZE;
    else {
      sameFace = true;
      out.push(cell(ci + k, cj - size, cj - size >= 0));
      out.push(cell(ci + k, cj + size, cj + size < MAX_SIZE));
    }
    out.push(cell(ci - size, cj + k, sameFace && ci - size >= 0));
    out.push(cell(ci + size, cj + k, sameFace && ci + size < MAX_SIZE));
    if (k >= size) break;
  }
  const distinct = [...new Set(S2_NEIGHBOUR_ORDER.map((k) => out[k]!).filter((n) => n !== id))];
  return JSON.stringify(distinct.map(toToken));
}
