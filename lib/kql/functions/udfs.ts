/**
 * Functions the DuckDB engine computes in JavaScript, registered on each DuckDB database as scalar
 * functions (lib/service/telemetry/duckdb registers them; the tests' databases too), where DuckDB
 * has no function with ADX's answer. ClickHouse spells the same functions with its own (the
 * function table's entries name both). Pure: no DuckDB import here.
 */

import { erf, erfc } from "./erf";
import { seriesIir } from "./filters";
import * as h3 from "./h3";
import * as ip from "./ip";
import * as s2 from "./s2";
import * as sketch from "./sketch";
import * as sphere from "./sphere";
import * as text from "./text";
import { geoFromWkt } from "./wkt";

const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & MASK;
const round = (acc: bigint, input: bigint) => (rotl((acc + input * P2) & MASK, 31n) * P1) & MASK;
const merge = (acc: bigint, value: bigint) => ((((acc ^ round(0n, value)) * P1) & MASK) + P4) & MASK;

function read64(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

function read32(bytes: Uint8Array, at: number): bigint {
  return BigInt((bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) >>> 0) + BigInt(bytes[at + 3]!) * 0x1000000n;
}

/** XXH64 (seed 0) of the bytes, as an unsigned 64-bit number: ADX's hash() and hash_xxhash64(). */
function xxhash64(bytes: Uint8Array): bigint {
  const length = bytes.length;
  let at = 0;
  let h: bigint;
  if (length >= 32) {
    let v1 = (P1 + P2) & MASK;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (MASK + 1n - P1) & MASK;
    for (; at + 32 <= length; at += 32) {
      v1 = round(v1, read64(bytes, at));
      v2 = round(v2, read64(bytes, at + 8));
      v3 = round(v3, read64(bytes, at + 16));
      v4 = round(v4, read64(bytes, at + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(length)) & MASK;
  for (; at + 8 <= length; at += 8) h = (((rotl(h ^ round(0n, read64(bytes, at)), 27n) * P1) & MASK) + P4) & MASK;
  if (at + 4 <= length) {
    h = (((rotl(h ^ ((read32(bytes, at) * P1) & MASK), 23n) * P2) & MASK) + P3) & MASK;
    at += 4;
  }
  for (; at < length; at++) h = (rotl(h ^ ((BigInt(bytes[at]!) * P5) & MASK), 11n) * P1) & MASK;
  h = ((h ^ (h >> 33n)) * P2) & MASK;
  h = ((h ^ (h >> 29n)) * P3) & MASK;
  return h ^ (h >> 32n);
}

const utf8 = new TextEncoder();

/** A long's 8 bytes, little-endian. */
function littleEndian(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value, true);
  return bytes;
}

/** A JavaScript function DuckDB calls per row: typed parameters, a typed result, null in → null out. */
interface DuckDbUdf {
  name: string;
  params: readonly ("VARCHAR" | "BIGINT" | "DOUBLE")[];
  returns: "VARCHAR" | "BIGINT" | "DOUBLE" | "BOOLEAN";
  fn: (...args: never[]) => string | bigint | number | boolean | null;
}

/** The signed reading of an unsigned 64-bit number (ADX's longs). */
const signed = (u: bigint) => (u >= 1n << 63n ? u - (1n << 64n) : u);

export const DUCKDB_UDFS: readonly DuckDbUdf[] = [
  { name: "kql_xxhash64", params: ["VARCHAR"], returns: "BIGINT", fn: (text: string) => signed(xxhash64(utf8.encode(text))) },
  { name: "kql_xxhash64_long", params: ["BIGINT"], returns: "BIGINT", fn: (value: bigint) => signed(xxhash64(littleEndian(value))) },
  // The error function (erf.ts; the entries in math.ts).
  { name: "kql_erf", params: ["DOUBLE"], returns: "DOUBLE", fn: erf },
  { name: "kql_erfc", params: ["DOUBLE"], returns: "DOUBLE", fn: erfc },
  // IPv4 and IPv6 (ip.ts; the entries in ip-addresses.ts).
  { name: "kql_parse_ipv4", params: ["VARCHAR"], returns: "BIGINT", fn: ip.parseIpv4 },
  { name: "kql_parse_ipv4_mask", params: ["VARCHAR", "BIGINT"], returns: "BIGINT", fn: ip.parseIpv4Mask },
  { name: "kql_format_ipv4", params: ["VARCHAR", "BIGINT"], returns: "VARCHAR", fn: (a: string, m: bigint) => ip.formatIpv4(a, m, false) },
  { name: "kql_format_ipv4_long", params: ["BIGINT", "BIGINT"], returns: "VARCHAR", fn: (a: bigint, m: bigint) => ip.formatIpv4(a, m, false) },
  { name: "kql_format_ipv4_mask", params: ["VARCHAR", "BIGINT"], returns: "VARCHAR", fn: (a: string, m: bigint) => ip.formatIpv4(a, m, true) },
  { name: "kql_format_ipv4_mask_long", params: ["BIGINT", "BIGINT"], returns: "VARCHAR", fn: (a: bigint, m: bigint) => ip.formatIpv4(a, m, true) },
  { name: "kql_ipv4_compare", params: ["VARCHAR", "VARCHAR", "BIGINT"], returns: "BIGINT", fn: ip.ipv4Compare },
  { name: "kql_ipv4_is_in_any_range", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: ip.ipv4IsInAnyRange },
  { name: "kql_ipv4_is_private", params: ["VARCHAR"], returns: "BOOLEAN", fn: ip.ipv4IsPrivate },
  { name: "kql_ipv4_netmask_suffix", params: ["VARCHAR"], returns: "BIGINT", fn: ip.ipv4NetmaskSuffix },
  { name: "kql_ipv4_range_to_cidr_list", params: ["VARCHAR", "VARCHAR"], returns: "VARCHAR", fn: ip.ipv4RangeToCidrList },
  { name: "kql_has_any_ipv4", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: ip.hasAnyIpv4 },
  { name: "kql_has_any_ipv4_prefix", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: ip.hasAnyIpv4Prefix },
  { name: "kql_parse_ipv6_mask", params: ["VARCHAR", "BIGINT"], returns: "VARCHAR", fn: ip.parseIpv6Mask },
  { name: "kql_ipv6_compare", params: ["VARCHAR", "VARCHAR", "BIGINT"], returns: "BIGINT", fn: ip.ipv6Compare },
  { name: "kql_ipv6_is_in_any_range", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: ip.ipv6IsInAnyRange },
  // Text (text.ts; the entries in text-functions.ts).
  { name: "kql_replace_strings", params: ["VARCHAR", "VARCHAR", "VARCHAR"], returns: "VARCHAR", fn: text.replaceStrings },
  { name: "kql_codepoints_to_string", params: ["VARCHAR"], returns: "VARCHAR", fn: text.codepointsToString },
  { name: "kql_has_any_index", params: ["VARCHAR", "VARCHAR"], returns: "BIGINT", fn: text.hasAnyIndex },
  { name: "kql_url_encode", params: ["VARCHAR"], returns: "VARCHAR", fn: (s: string) => text.urlEncode(s, false) },
  { name: "kql_url_encode_component", params: ["VARCHAR"], returns: "VARCHAR", fn: (s: string) => text.urlEncode(s, true) },
  { name: "kql_parse_urlquery", params: ["VARCHAR"], returns: "VARCHAR", fn: text.parseUrlQuery },
  { name: "kql_parse_csv", params: ["VARCHAR"], returns: "VARCHAR", fn: text.parseCsv },
  { name: "kql_punycode_encode", params: ["VARCHAR"], returns: "VARCHAR", fn: text.punycodeEncode },
  { name: "kql_punycode_decode", params: ["VARCHAR"], returns: "VARCHAR", fn: text.punycodeDecode },
  { name: "kql_punycode_domain_encode", params: ["VARCHAR"], returns: "VARCHAR", fn: text.punycodeDomainEncode },
  { name: "kql_punycode_domain_decode", params: ["VARCHAR"], returns: "VARCHAR", fn: text.punycodeDomainDecode },
  // series_iir (filters.ts; the entry in series.ts).
  { name: "kql_series_iir", params: ["VARCHAR", "VARCHAR", "VARCHAR"], returns: "VARCHAR", fn: seriesIir },
  // Lines and polygons on the sphere (sphere.ts; the entries in geo.ts).
  { name: "kql_geo_line_length", params: ["VARCHAR"], returns: "DOUBLE", fn: sphere.geoLineLength },
  { name: "kql_geo_line_centroid", params: ["VARCHAR"], returns: "VARCHAR", fn: sphere.geoLineCentroid },
  { name: "kql_geo_line_interpolate_point", params: ["VARCHAR", "DOUBLE"], returns: "VARCHAR", fn: sphere.geoLineInterpolatePoint },
  { name: "kql_geo_line_locate_point", params: ["VARCHAR", "DOUBLE", "DOUBLE"], returns: "DOUBLE", fn: sphere.geoLineLocatePoint },
  { name: "kql_geo_polygon_area", params: ["VARCHAR"], returns: "DOUBLE", fn: sphere.geoPolygonArea },
  { name: "kql_geo_polygon_perimeter", params: ["VARCHAR"], returns: "DOUBLE", fn: sphere.geoPolygonPerimeter },
  { name: "kql_geo_polygon_centroid", params: ["VARCHAR"], returns: "VARCHAR", fn: sphere.geoPolygonCentroid },
  { name: "kql_geo_distance_point_to_line", params: ["DOUBLE", "DOUBLE", "VARCHAR"], returns: "DOUBLE", fn: sphere.geoDistancePointToLine },
  { name: "kql_geo_closest_point_on_line", params: ["DOUBLE", "DOUBLE", "VARCHAR"], returns: "VARCHAR", fn: sphere.geoClosestPointOnLine },
  { name: "kql_geo_point_in_polygon", params: ["DOUBLE", "DOUBLE", "VARCHAR"], returns: "BOOLEAN", fn: sphere.geoPointInPolygon },
  { name: "kql_geo_distance_point_to_polygon", params: ["DOUBLE", "DOUBLE", "VARCHAR"], returns: "DOUBLE", fn: sphere.geoDistancePointToPolygon },
  { name: "kql_geo_closest_point_on_polygon", params: ["DOUBLE", "DOUBLE", "VARCHAR"], returns: "VARCHAR", fn: sphere.geoClosestPointOnPolygon },
  { name: "kql_geo_intersects_2lines", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: sphere.geoIntersects2Lines },
  { name: "kql_geo_intersects_line_with_polygon", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: sphere.geoIntersectsLineWithPolygon },
  { name: "kql_geo_intersects_2polygons", params: ["VARCHAR", "VARCHAR"], returns: "BOOLEAN", fn: sphere.geoIntersects2Polygons },
  // S2 cells (s2.ts; the entries in geo.ts).
  { name: "kql_s2_point_to_cell", params: ["DOUBLE", "DOUBLE", "BIGINT"], returns: "VARCHAR", fn: s2.s2PointToCell },
  { name: "kql_s2_cell_to_central_point", params: ["VARCHAR"], returns: "VARCHAR", fn: s2.s2CellToCentralPoint },
  { name: "kql_s2_cell_to_polygon", params: ["VARCHAR"], returns: "VARCHAR", fn: s2.s2CellToPolygon },
  { name: "kql_s2_cell_neighbors", params: ["VARCHAR"], returns: "VARCHAR", fn: s2.s2CellNeighbors },
  // H3 cells' hierarchy (h3.ts; the entries in geo.ts).
  { name: "kql_h3_level", params: ["VARCHAR"], returns: "BIGINT", fn: h3.h3Level },
  // A resolution given, and the default (DuckDB passes no NULL argument to a function: the result is NULL).
  { name: "kql_h3_parent_at", params: ["VARCHAR", "BIGINT"], returns: "VARCHAR", fn: h3.h3Parent },
  { name: "kql_h3_parent", params: ["VARCHAR"], returns: "VARCHAR", fn: (token: string) => h3.h3Parent(token, null) },
  { name: "kql_h3_children_at", params: ["VARCHAR", "BIGINT"], returns: "VARCHAR", fn: h3.h3Children },
  { name: "kql_h3_children", params: ["VARCHAR"], returns: "VARCHAR", fn: (token: string) => h3.h3Children(token, null) },
  // tdigest() digests and weighted percentiles (sketch.ts; the entries in sketches.ts).
  { name: "kql_digest_percentile", params: ["VARCHAR", "DOUBLE"], returns: "DOUBLE", fn: sketch.digestPercentile },
  { name: "kql_digest_percentiles", params: ["VARCHAR", "VARCHAR"], returns: "VARCHAR", fn: sketch.digestPercentiles },
  { name: "kql_digest_rank", params: ["VARCHAR", "DOUBLE"], returns: "DOUBLE", fn: (json: string, value: number) => sketch.digestRank(json, value, false) },
  { name: "kql_digest_percentrank", params: ["VARCHAR", "DOUBLE"], returns: "DOUBLE", fn: (json: string, value: number) => sketch.digestRank(json, value, true) },
  { name: "kql_buildschema", params: ["VARCHAR"], returns: "VARCHAR", fn: sketch.buildSchema },
  { name: "kql_geo_from_wkt", params: ["VARCHAR"], returns: "VARCHAR", fn: geoFromWkt },
  { name: "kql_geo_line_densify", params: ["VARCHAR", "DOUBLE"], returns: "VARCHAR", fn: sphere.geoLineDensify },
  { name: "kql_geo_polygon_densify", params: ["VARCHAR", "DOUBLE"], returns: "VARCHAR", fn: sphere.geoPolygonDensify },
];
