/**
 * Lines and polygons on the sphere, as ADX measures them (docs/kql-functions.md, "Geospatial
 * functions"): GeoJSON LineString/MultiLineString and Polygon/MultiPolygon, geodesic edges, a sphere
 * of radius 6,371,010 m. The arithmetic is S2's (points as unit vectors; an edge's length the angle
 * between its ends; a polyline's centroid the sum of its edges' true centroids; a ring's area the
 * sum of its fan's signed triangles from the first vertex), so the answers agree with the pages'
 * printed digits. DuckDB calls these from udfs.ts; ClickHouse spells the same arithmetic (geo.ts).
 * Pure: no imports. Invalid input gives null.
 */

type Vec = [number, number, number];

/** The sphere's radius in metres: S2's Earth radius, as ADX measures (docs/kql-functions.md, "Geospatial functions"). */
export const EARTH_RADIUS = 6_371_010;
const RADIUS = EARTH_RADIUS;
const RAD = Math.PI / 180;

const point = (lon: number, lat: number): Vec => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec) => Math.sqrt(dot(a, a));
const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec, k: number): Vec => [a[0] * k, a[1] * k, a[2] * k];
/** The angle between two unit vectors, in radians. */
const angle = (a: Vec, b: Vec) => Math.atan2(norm(cross(a, b)), dot(a, b));
const lonLat = (v: Vec): [number, number] => [Math.atan2(v[1], v[0]) / RAD, Math.atan2(v[2], Math.hypot(v[0], v[1])) / RAD];

type Position = [number, number];

function parse(json: string): { type: string; coordinates: unknown } | null {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as { type: string; coordinates: unknown }) : null;
  } catch {
    return null;
  }
}

function position(value: unknown): Position | null {
  if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== "number" || typeof value[1] !== "number") return null;
  const [lon, lat] = value as number[];
  return lon! >= -180 && lon! <= 180 && lat! >= -90 && lat! <= 90 ? [lon!, lat!] : null;
}

function positions(value: unknown, min: number): Position[] | null {
  if (!Array.isArray(value) || value.length < min) return null;
  const list = value.map(position);
  return list.every((p) => p !== null) ? (list as Position[]) : null;
}

/** The lines of a LineString (one) or a MultiLineString, each of at least two valid positions; null otherwise. */
function lines(json: string, multi = true): Vec[][] | null {
  const geo = parse(json);
  if (geo?.type === "LineString") {
    const line = positions(geo.coordinates, 2);
    return line ? [line.map(([lon, lat]) => point(lon, lat))] : null;
  }
  if (multi && geo?.type === "MultiLineString" && Array.isArray(geo.coordinates) && geo.coordinates.length > 0) {
    const all = geo.coordinates.map((l) => positions(l, 2));
    return all.every((l) => l !== null) ? (all as Position[][]).map((l) => l.map(([lon, lat]) => point(lon, lat))) : null;
  }
  return null;
}

const lineLength = (line: Vec[]) => line.slice(1).reduce((sum, v, i) => sum + angle(line[i]!, v), 0);

export function geoLineLength(json: string): number | null {
  const all = lines(json);
  return all ? all.reduce((sum, line) => sum + lineLength(line), 0) * RADIUS : null;
}

/** An edge's true centroid times its length (S2::TrueCentroid): toward its midpoint, 2·sin(θ/2) long. */
function edgeCentroid(a: Vec, b: Vec): Vec {
  const diff: Vec = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const sum = add(a, b);
  const cos2 = dot(sum, sum);
  return cos2 === 0 ? [0, 0, 0] : scale(sum, Math.sqrt(dot(diff, diff) / cos2));
}

const geoPoint = (v: Vec) => {
  const [lon, lat] = lonLat(v);
  return JSON.stringify({ type: "Point", coordinates: [lon, lat] });
};

export function geoLineCentroid(json: string): string | null {
  const all = lines(json);
  if (!all) return null;
  let sum: Vec = [0, 0, 0];
  for (const line of all) for (let i = 1; i < line.length; i++) sum = add(sum, edgeCentroid(line[i - 1]!, line[i]!));
  return norm(sum) === 0 ? null : geoPoint(sum);
}

/** The point `r` radians from a along the geodesic to b (S2::GetPointOnLine). */
function pointOnLine(a: Vec, b: Vec, r: number): Vec {
  const n = cross(cross(a, b), a);
  const dir = scale(n, 1 / norm(n));
  const p = add(scale(a, Math.cos(r)), scale(dir, Math.sin(r)));
  return scale(p, 1 / norm(p));
}

export function geoLineInterpolatePoint(json: string, fraction: number): string | null {
  const all = lines(json, false);
  if (!all || !(fraction >= 0 && fraction <= 1)) return null;
  const line = all[0]!;
  let target = fraction * lineLength(line);
  if (fraction <= 0) return geoPoint(line[0]!);
  for (let i = 1; i < line.length; i++) {
    const length = angle(line[i - 1]!, line[i]!);
    if (target < length) return geoPoint(pointOnLine(line[i - 1]!, line[i]!, target));
    target -= length;
  }
  return geoPoint(line[line.length - 1]!);
}

/** The point of the edge [a, b] closest to x (S2::Project). */
function project(x: Vec, a: Vec, b: Vec): Vec {
  const n = cross(a, b);
  const n2 = dot(n, n);
  if (n2 === 0) return a;
  const onCircle = add(x, scale(n, -dot(x, n) / n2));
  const length = norm(onCircle);
  if (length > 0) {
    const p = scale(onCircle, 1 / length);
    if (dot(cross(n, a), p) >= 0 && dot(cross(b, n), p) >= 0) return p;
  }
  return angle(x, a) <= angle(x, b) ? a : b;
}

export function geoLineLocatePoint(json: string, lon: number, lat: number): number | null {
  const all = lines(json, false);
  const target = position([lon, lat]);
  if (!all || !target) return null;
  const line = all[0]!;
  const x = point(...target);
  let best = Infinity;
  let along = 0;
  let before = 0;
  for (let i = 1; i < line.length; i++) {
    const p = project(x, line[i - 1]!, line[i]!);
    const d = angle(x, p);
    if (d < best) {
      best = d;
      along = before + angle(line[i - 1]!, p);
    }
    before += angle(line[i - 1]!, line[i]!);
  }
  return before === 0 ? null : along / before;
}

/**
 * The rings of a Polygon or of each polygon of a MultiPolygon: each closed (first position = last),
 * at least four positions and three distinct vertices; the closing position dropped.
 */
function polygons(json: string): Vec[][][] | null {
  const geo = parse(json);
  const rings = (value: unknown): Vec[][] | null => {
    if (!Array.isArray(value) || value.length === 0) return null;
    const list: Vec[][] = [];
    for (const r of value) {
      const ring = positions(r, 4);
      if (!ring) return null;
      const [first, last] = [ring[0]!, ring[ring.length - 1]!];
      if (first[0] !== last[0] || first[1] !== last[1]) return null;
      const vertices = ring.slice(0, -1).filter((p, i, all) => i === 0 || p[0] !== all[i - 1]![0] || p[1] !== all[i - 1]![1]);
      if (new Set(vertices.map((p) => `${p[0]},${p[1]}`)).size < 3) return null;
      list.push(vertices.map(([lon, lat]) => point(lon, lat)));
    }
    return list;
  };
  if (geo?.type === "Polygon") {
    const one = rings(geo.coordinates);
    return one ? [one] : null;
  }
  if (geo?.type === "MultiPolygon" && Array.isArray(geo.coordinates) && geo.coordinates.length > 0) {
    const all = geo.coordinates.map(rings);
    return all.every((p) => p !== null) ? (all as Vec[][][]) : null;
  }
  return null;
}

/** A spherical triangle's area (S2::Area: l'Huilier's formula, Girard's for wide triangles). */
function triangleArea(a: Vec, b: Vec, c: Vec): number {
  const sa = angle(b, c);
  const sb = angle(c, a);
  const sc = angle(a, b);
  const s = 0.5 * (sa + sb + sc);
  if (s >= 3e-4) {
    const s2 = s * s;
    const dmin = s - Math.max(sa, sb, sc);
    if (dmin < 1e-2 * s * s2 * s2) {
      const girard = girardArea(a, b, c);
      if (dmin < s * (0.1 * (girard + 5e-15))) return girard;
    }
  }
  return 4 * Math.atan(Math.sqrt(Math.max(0, Math.tan(0.5 * s) * Math.tan(0.5 * (s - sa)) * Math.tan(0.5 * (s - sb)) * Math.tan(0.5 * (s - sc)))));
}

function girardArea(a: Vec, b: Vec, c: Vec): number {
  const ab = cross(a, b);
  const bc = cross(b, c);
  const ac = cross(a, c);
  return Math.max(0, angle(ab, ac) - angle(ab, bc) + angle(bc, ac));
}

/** The area a ring encloses, the smaller of its two sides (the pages: a ring bounds at most half the sphere). */
function ringArea(ring: Vec[]): number {
  let sum = 0;
  const o = ring[0]!;
  for (let i = 1; i + 1 < ring.length; i++) {
    const sign = Math.sign(dot(cross(o, ring[i]!), ring[i + 1]!));
    sum += sign * triangleArea(o, ring[i]!, ring[i + 1]!);
  }
  const area = Math.abs(sum);
  return Math.min(area, 4 * Math.PI - area);
}

export function geoPolygonArea(json: string): number | null {
  const all = polygons(json);
  if (!all) return null;
  let total = 0;
  for (const [shell, ...holes] of all) total += ringArea(shell!) - holes.reduce((sum, h) => sum + ringArea(h), 0);
  return total * RADIUS * RADIUS;
}

export function geoPolygonPerimeter(json: string): number | null {
  const all = polygons(json);
  if (!all) return null;
  let total = 0;
  for (const rings of all) for (const ring of rings) total += lineLength([...ring, ring[0]!]);
  return total * RADIUS;
}

/** The point of a set of edges closest to x, and its distance (radians); null for no edge. */
function closest(x: Vec, edges: [Vec, Vec][]): { point: Vec; distance: number } | null {
  let best: { point: Vec; distance: number } | null = null;
  for (const [a, b] of edges) {
    const p = project(x, a, b);
    const distance = angle(x, p);
    if (!best || distance < best.distance) best = { point: p, distance };
  }
  return best;
}

const lineEdges = (all: Vec[][]): [Vec, Vec][] => all.flatMap((line) => line.slice(1).map((b, i): [Vec, Vec] => [line[i]!, b]));
const ringEdges = (ring: Vec[]): [Vec, Vec][] => ring.map((a, i): [Vec, Vec] => [a, ring[(i + 1) % ring.length]!]);

export function geoDistancePointToLine(lon: number, lat: number, json: string): number | null {
  const target = position([lon, lat]);
  const all = lines(json);
  const near = target && all ? closest(point(...target), lineEdges(all)) : null;
  return near ? near.distance * RADIUS : null;
}

export function geoClosestPointOnLine(lon: number, lat: number, json: string): string | null {
  const target = position([lon, lat]);
  const all = lines(json);
  const near = target && all ? closest(point(...target), lineEdges(all)) : null;
  return near ? geoPoint(near.point) : null;
}

/** A triangle's area signed by its orientation (positive counterclockwise). */
const signedArea = (a: Vec, b: Vec, c: Vec) => Math.sign(dot(cross(a, b), c)) * triangleArea(a, b, c);

/**
 * Whether x lies in the region a ring bounds (its smaller side). The fan of signed triangles from
 * the first vertex sums to the area left of the ring (less 4π when negative); the fan from any
 * other point y sums to that area less 4π exactly when -y lies left of the ring (a triangle's sign
 * flips as y crosses the far side of an edge's great circle). So the fan from -x places x.
 */
function inRing(x: Vec, ring: Vec[]): boolean {
  let fromVertex = 0;
  for (let i = 1; i + 1 < ring.length; i++) fromVertex += signedArea(ring[0]!, ring[i]!, ring[i + 1]!);
  const left = fromVertex < 0 ? fromVertex + 4 * Math.PI : fromVertex;
  const opposite = scale(x, -1);
  const fromOpposite = ringEdges(ring).reduce((sum, [a, b]) => sum + signedArea(opposite, a, b), 0);
  const leftOfRing = fromOpposite < left - 2 * Math.PI;
  return left <= 2 * Math.PI ? leftOfRing : !leftOfRing;
}

const inPolygons = (x: Vec, all: Vec[][][]) => all.some(([shell, ...holes]) => inRing(x, shell!) && !holes.some((h) => inRing(x, h)));

export function geoPointInPolygon(lon: number, lat: number, json: string): boolean | null {
  const target = position([lon, lat]);
  const all = polygons(json);
  return target && all ? inPolygons(point(...target), all) : null;
}

export function geoDistancePointToPolygon(lon: number, lat: number, json: string): number | null {
  const target = position([lon, lat]);
  const all = polygons(json);
  if (!target || !all) return null;
  const x = point(...target);
  return inPolygons(x, all) ? 0 : closest(x, all.flat().flatMap(ringEdges))!.distance * RADIUS;
}

export function geoClosestPointOnPolygon(lon: number, lat: number, json: string): string | null {
  const target = position([lon, lat]);
  const all = polygons(json);
  if (!target || !all) return null;
  const x = point(...target);
  return geoPoint(inPolygons(x, all) ? x : closest(x, all.flat().flatMap(ringEdges))!.point);
}

/** How many times an edge is halved at most (2^20 pieces an edge). */
export const DENSIFY_LEVELS = 20;

/**
 * A planar edge's deviation from the geodesic between its ends: the distance (radians) from the
 * planar midpoint (the mean of the longitudes and of the latitudes) to the geodesic's great circle.
 */
function planarDeviation(a: Position, b: Position): number {
  const n = cross(point(...a), point(...b));
  const length = norm(n);
  return length === 0 ? 0 : Math.abs(Math.asin(Math.min(1, Math.abs(dot(point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), n)) / length)));
}

/** Halve every edge whose planar midpoint lies more than `tolerance` radians from its geodesic, until none does. */
function densify(line: Position[], tolerance: number): Position[] {
  let points = line;
  for (let level = 0; level < DENSIFY_LEVELS; level++) {
    const next: Position[] = [points[0]!];
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!];
      if (planarDeviation(a, b) > tolerance) next.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
      next.push(b);
    }
    if (next.length === points.length) break;
    points = next;
  }
  return points;
}

const validTolerance = (tolerance: number) => tolerance >= 0.1 && tolerance <= 10_000;

export function geoLineDensify(json: string, tolerance: number): string | null {
  const geo = parse(json);
  if (!validTolerance(tolerance) || !lines(json)) return null;
  const t = tolerance / RADIUS;
  const coordinates = geo!.type === "LineString" ? densify(positions(geo!.coordinates, 2)!, t) : (geo!.coordinates as unknown[]).map((l) => densify(positions(l, 2)!, t));
  return JSON.stringify({ type: geo!.type, coordinates });
}

export function geoPolygonDensify(json: string, tolerance: number): string | null {
  const geo = parse(json);
  if (!validTolerance(tolerance) || !polygons(json)) return null;
  const t = tolerance / RADIUS;
  const rings = (p: unknown) => (p as unknown[]).map((r) => densify(positions(r, 4)!, t));
  return JSON.stringify({ type: geo!.type, coordinates: geo!.type === "Polygon" ? rings(geo!.coordinates) : (geo!.coordinates as unknown[]).map(rings) });
}

/** A spherical triangle's centroid times its signed area (S2::TrueCentroid, Cramer's rule on rows less the first). */
function triangleCentroid(a: Vec, b: Vec, c: Vec): Vec {
  const r = (side: number) => (side === 0 ? 1 : side / Math.sin(side));
  const [ra, rb, rc] = [r(angle(b, c)), r(angle(c, a)), r(angle(a, b))];
  const x: Vec = [a[0], b[0] - a[0], c[0] - a[0]];
  const y: Vec = [a[1], b[1] - a[1], c[1] - a[1]];
  const z: Vec = [a[2], b[2] - a[2], c[2] - a[2]];
  const rr: Vec = [ra, rb - ra, rc - ra];
  return [0.5 * dot(cross(y, z), rr), 0.5 * dot(cross(z, x), rr), 0.5 * dot(cross(x, y), rr)];
}

/** A ring's centroid times its area, over its smaller side (the fan from the first vertex, turned round when the ring runs clockwise). */
function ringCentroid(ring: Vec[]): Vec {
  let sum: Vec = [0, 0, 0];
  let area = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    sum = add(sum, triangleCentroid(ring[0]!, ring[i]!, ring[i + 1]!));
    area += signedArea(ring[0]!, ring[i]!, ring[i + 1]!);
  }
  return area < 0 ? scale(sum, -1) : sum;
}

export function geoPolygonCentroid(json: string): string | null {
  const all = polygons(json);
  if (!all) return null;
  let sum: Vec = [0, 0, 0];
  for (const [shell, ...holes] of all) sum = holes.reduce((s, h) => add(s, scale(ringCentroid(h), -1)), add(sum, ringCentroid(shell!)));
  return norm(sum) === 0 ? null : geoPoint(sum);
}

/** Two points closer than this (radians, about 6 µm on the Earth) touch. */
export const TOUCH = 1e-12;

/** Whether the edges [a, b] and [c, d] cross at a point interior to both (S2's SimpleCrossing). */
function edgesCross(a: Vec, b: Vec, c: Vec, d: Vec): boolean {
  const ab = cross(a, b);
  const acb = -dot(ab, c);
  const bda = dot(ab, d);
  if (acb * bda <= 0) return false;
  const cd = cross(c, d);
  const cbd = -dot(cd, b);
  const dac = dot(cd, a);
  return acb * cbd > 0 && acb * dac > 0;
}

/** Whether two sets of edges meet: a crossing, or an end of one touching the other. */
function edgesMeet(one: [Vec, Vec][], other: [Vec, Vec][]): boolean {
  const touches = (x: Vec, edges: [Vec, Vec][]) => closest(x, edges)!.distance <= TOUCH;
  return (
    one.some(([a, b]) => other.some(([c, d]) => edgesCross(a, b, c, d))) ||
    one.some(([a, b]) => touches(a, other) || touches(b, other)) ||
    other.some(([c, d]) => touches(c, one) || touches(d, one))
  );
}

export function geoIntersects2Lines(json1: string, json2: string): boolean | null {
  const [one, other] = [lines(json1), lines(json2)];
  return one && other ? edgesMeet(lineEdges(one), lineEdges(other)) : null;
}

export function geoIntersectsLineWithPolygon(lineJson: string, polygonJson: string): boolean | null {
  const [line, all] = [lines(lineJson), polygons(polygonJson)];
  if (!line || !all) return null;
  return line.some((l) => l.some((v) => inPolygons(v, all))) || edgesMeet(lineEdges(line), all.flat().flatMap(ringEdges));
}

export function geoIntersects2Polygons(json1: string, json2: string): boolean | null {
  const [one, other] = [polygons(json1), polygons(json2)];
  if (!one || !other) return null;
  const vertices = (all: Vec[][][]) => all.flat(2);
  return vertices(one).some((v) => inPolygons(v, other)) || vertices(other).some((v) => inPolygons(v, one)) || edgesMeet(one.flat().flatMap(ringEdges), other.flat().flatMap(ringEdges));
}
