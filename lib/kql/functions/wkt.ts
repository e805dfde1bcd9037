/**
 * geo_from_wkt's reading of well-known text (docs/kql-functions.md, "Geospatial functions"): a
 * POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON or a GEOMETRYCOLLECTION of
 * them, two coordinates a position, keywords in any case, as GeoJSON. The text is checked against
 * the grammar below and rewritten by the same replacements on both engines: DuckDB runs this module
 * (udfs.ts), ClickHouse the same regular expressions (geo.ts). Pure: no imports.
 */

const NUM = String.raw`-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`;
const PT = String.raw`${NUM}\s+${NUM}`;
const LIST = String.raw`\(\s*${PT}(?:\s*,\s*${PT})*\s*\)`;
const LISTS = String.raw`\(\s*${LIST}(?:\s*,\s*${LIST})*\s*\)`;
const LISTS2 = String.raw`\(\s*${LISTS}(?:\s*,\s*${LISTS})*\s*\)`;
const MPT_ITEM = String.raw`(?:${PT}|\(\s*${PT}\s*\))`;

/** Each geometry's keyword, its GeoJSON type and the grammar of what follows the keyword. */
export const WKT_TYPES = [
  ["MULTIPOINT", "MultiPoint", String.raw`\(\s*${MPT_ITEM}(?:\s*,\s*${MPT_ITEM})*\s*\)`],
  ["MULTILINESTRING", "MultiLineString", LISTS],
  ["MULTIPOLYGON", "MultiPolygon", LISTS2],
  ["POINT", "Point", String.raw`\(\s*${PT}\s*\)`],
  ["LINESTRING", "LineString", LIST],
  ["POLYGON", "Polygon", LISTS],
] as const;

/** One geometry (not a collection): a keyword and its body. */
export const WKT_GEOMETRY = `(?:${WKT_TYPES.map(([keyword, , body]) => String.raw`${keyword}\s*${body}`).join("|")})`;
export const WKT_COLLECTION = String.raw`GEOMETRYCOLLECTION\s*\(\s*${WKT_GEOMETRY}(?:\s*,\s*${WKT_GEOMETRY})*\s*\)`;

/** The replacements that turn a geometry's body into GeoJSON coordinates, in order (`$1`-style groups). */
export const WKT_REWRITES: readonly [pattern: string, replacement: string][] = [
  [String.raw`(${NUM})\s+(${NUM})`, "[$1,$2]"],
  [String.raw`\(`, "["],
  [String.raw`\)`, "]"],
  [String.raw`\s+`, ""],
];
/** MULTIPOINT ((1 2), (3 4)): each position's own brackets dropped. */
export const WKT_MULTIPOINT_REWRITE: [string, string] = [String.raw`\[(\[[^\[\]]*\])\]`, "$1"];

function geometry(text: string): string {
  const keyword = /^\s*([A-Za-z]+)/.exec(text)![1]!.toUpperCase();
  const [, type] = WKT_TYPES.find(([k]) => k === keyword)!;
  let coordinates = text.replace(/^\s*[A-Za-z]+/, "");
  for (const [pattern, replacement] of WKT_REWRITES) coordinates = coordinates.replace(new RegExp(pattern, "g"), replacement);
  if (keyword === "POINT") coordinates = coordinates.slice(1, -1);
  if (keyword === "MULTIPOINT") coordinates = coordinates.replace(new RegExp(WKT_MULTIPOINT_REWRITE[0], "g"), WKT_MULTIPOINT_REWRITE[1]);
  return `{"type":"${type}","coordinates":${coordinates}}`;
}

export function geoFromWkt(wkt: string): string | null {
  if (new RegExp(`^\\s*${WKT_GEOMETRY}\\s*$`, "i").test(wkt)) return geometry(wkt.trim());
  if (!new RegExp(`^\\s*${WKT_COLLECTION}\\s*$`, "i").test(wkt)) return null;
  const members = wkt.replace(/^\s*[A-Za-z]+/, "").match(new RegExp(WKT_GEOMETRY, "gi")) ?? [];
  return `{"type":"GeometryCollection","geometries":[${members.map(geometry).join(",")}]}`;
}
