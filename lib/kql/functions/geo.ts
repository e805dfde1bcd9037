/**
 * KQL's geospatial functions (entry.ts says what an entry holds; docs/kql-functions.md how to add
 * one, and "Geospatial functions" for the rules): points, lines and polygons on the sphere, S2 and
 * H3 cells, well-known text. ADX measures on a sphere of radius 6,371,010 m with geodesic edges; a
 * coordinate out of range (longitude outside [-180, 180], latitude outside [-90, 90]) gives null.
 * Points are the same SQL on both engines; for lines, polygons and cells DuckDB calls the pure
 * modules sphere.ts, s2.ts, h3.ts and wkt.ts (udfs.ts) and ClickHouse spells the same arithmetic here.
 */
import { scalar, type FunctionEntry } from "./entry";
import { guarded } from "./math";
import { S2_NEIGHBOUR_ORDER } from "./s2";
import { DENSIFY_LEVELS, EARTH_RADIUS, TOUCH } from "./sphere";
import { WKT_COLLECTION, WKT_GEOMETRY, WKT_MULTIPOINT_REWRITE, WKT_REWRITES, WKT_TYPES } from "./wkt";

/** The coordinates are valid: each longitude in [-180, 180], each latitude in [-90, 90]. */
function valid(...points: [string, string][]): string {
  return points.map(([lon, lat]) => `${lon} BETWEEN -180 AND 180 AND ${lat} BETWEEN -90 AND 90`).join(" AND ");
}

/**
 * The haversine of the central angle between two points (0 for the same point, 1 for antipodes);
 * the angle is 2·asin(√h). S2's S2LatLng::GetDistance computes the same.
 */
function haversine([lon1, lat1]: [string, string], [lon2, lat2]: [string, string]): string {
  return `least(1.0, pow(sin(0.5 * (radians(${lat2}) - radians(${lat1}))), 2) + pow(sin(0.5 * (radians(${lon2}) - radians(${lon1}))), 2) * cos(radians(${lat1})) * cos(radians(${lat2})))`;
}

const distance = (a: [string, string], b: [string, string]) => `(${2 * EARTH_RADIUS} * asin(sqrt(${haversine(a, b)})))`;

/**
 * The initial bearing of the geodesic from a to b, clockwise from north, in [0, 2π); defined only
 * when the points are neither the same nor antipodal (the haversine strictly between 0 and 1, with
 * a tolerance of a few nanometres so that one pole written with two longitudes is one point).
 */
function bearing([lon1, lat1]: [string, string], [lon2, lat2]: [string, string]): string {
  const theta = `atan2(sin(radians(${lon2}) - radians(${lon1})) * cos(radians(${lat2})), cos(radians(${lat1})) * sin(radians(${lat2})) - sin(radians(${lat1})) * cos(radians(${lat2})) * cos(radians(${lon2}) - radians(${lon1})))`;
  return positive(theta);
}

/** An angle in (-2π, 2π) brought into [0, 2π). */
const positive = (angle: string) => `((${angle}) + CASE WHEN (${angle}) < 0 THEN 2 * pi() ELSE 0 END)`;

const distinct = (a: [string, string], b: [string, string]) => `${haversine(a, b)} > 1e-30 AND ${haversine(a, b)} < 1`;

type Point = [string, string];
const points = (args: string[]): Point[] => Array.from({ length: args.length >> 1 }, (_, i) => [args[2 * i]!, args[2 * i + 1]!]);

const both = (spell: (args: string[]) => { duckdb: string; clickhouse: string }) => ({ duckdb: ({ args }: { args: string[] }) => spell(args).duckdb, clickhouse: ({ args }: { args: string[] }) => spell(args).clickhouse });

/*
 * Lines and polygons (GeoJSON): DuckDB calls sphere.ts (udfs.ts); ClickHouse spells the same S2
 * arithmetic below, points as Tuple(Float64, Float64, Float64) unit vectors, each value bound once
 * by a lambda (`let`). The two cannot drift apart: conformance/geo.test.ts runs both on the same cases.
 */

/** `body` over `value` bound to `name` (computed once). */
const bind = (name: string, value: string, body: string) => `arrayMap(${name} -> ${body}, [${value}])[1]`;
const vec = (lon: string, lat: string) => `tuple(cos(radians(${lat})) * cos(radians(${lon})), cos(radians(${lat})) * sin(radians(${lon})), sin(radians(${lat})))`;
const cross = (a: string, b: string) => `tuple(${a}.2 * ${b}.3 - ${a}.3 * ${b}.2, ${a}.3 * ${b}.1 - ${a}.1 * ${b}.3, ${a}.1 * ${b}.2 - ${a}.2 * ${b}.1)`;
/** The angle between two unit vectors (named: each is read several times). */
const angleCh = (a: string, b: string) => `atan2(L2Norm(${cross(a, b)}), dotProduct(${a}, ${b}))`;
const validPosition = (p: string) => `length(${p}) >= 2 AND ${p}[1] BETWEEN -180 AND 180 AND ${p}[2] BETWEEN -90 AND 90`;
const geoType = (json: string) => `JSONExtractString(${json}, 'type')`;
const coordinates = (json: string, depth: number) => `JSONExtract(${json}, 'coordinates', '${"Array(".repeat(depth)}Float64${")".repeat(depth)}')`;
/** A line's positions as unit vectors. */
const vectors = (line: string, p: string) => `arrayMap(${p} -> ${vec(`${p}[1]`, `${p}[2]`)}, ${line})`;
/** The lengths (radians) of a line's edges; the line is named. */
const edgeLengths = (v: string) => `arrayMap((kql_ea, kql_eb) -> ${angleCh("kql_ea", "kql_eb")}, arrayPopBack(${v}), arrayPopFront(${v}))`;
/** A unit vector as a GeoJSON point. */
const chPoint = (v: string) => bind("kql_pt", v, `concat('{"type":"Point","coordinates":[', toString(degrees(atan2(kql_pt.2, kql_pt.1))), ',', toString(degrees(atan2(kql_pt.3, hypot(kql_pt.1, kql_pt.2)))), ']}')`);

/** The lines of a LineString (or also a MultiLineString), `body` over them as arrays of unit vectors; null when invalid. */
function chLines(json: string, multi: boolean, body: (lines: string) => string): string {
  const j = "kql_j";
  const lines = `multiIf(${geoType(j)} = 'LineString', [${coordinates(j, 2)}], ${multi ? `${geoType(j)} = 'MultiLineString', ${coordinates(j, 3)}, ` : ""}[])`;
  const valid = `length(kql_ls) > 0 AND arrayAll(kql_l -> length(kql_l) >= 2 AND arrayAll(kql_p -> ${validPosition("kql_p")}, kql_l), kql_ls)`;
  return bind("kql_j", `ifNull(${json}, '')`, bind("kql_ls", lines, `if(${valid}, ${bind("kql_vs", `arrayMap(kql_l -> ${vectors("kql_l", "kql_p")}, kql_ls)`, body("kql_vs"))}, NULL)`));
}

/** The rings of a Polygon or a MultiPolygon (polygons of rings of unit vectors, the closing position dropped), `body` over them; null when invalid. */
function chPolygons(json: string, body: (polygons: string) => string): string {
  const j = "kql_j";
  const polygons = `multiIf(${geoType(j)} = 'Polygon', [${coordinates(j, 3)}], ${geoType(j)} = 'MultiPolygon', ${coordinates(j, 4)}, [])`;
  const vertices = "arrayFilter((kql_p, kql_i) -> kql_i = 1 OR kql_p != arrayPopBack(kql_r)[kql_i - 1], arrayPopBack(kql_r), arrayEnumerate(arrayPopBack(kql_r)))";
  const ringValid = `length(kql_r) >= 4 AND arrayAll(kql_p -> ${validPosition("kql_p")}, kql_r) AND kql_r[1][1] = kql_r[-1][1] AND kql_r[1][2] = kql_r[-1][2] AND length(arrayDistinct(${vertices})) >= 3`;
  const valid = `length(kql_ps) > 0 AND arrayAll(kql_rs -> length(kql_rs) > 0 AND arrayAll(kql_r -> ${ringValid}, kql_rs), kql_ps)`;
  const asVectors = `arrayMap(kql_rs -> arrayMap(kql_r -> arrayMap(kql_p -> ${vec("kql_p[1]", "kql_p[2]")}, ${vertices}), kql_rs), kql_ps)`;
  return bind("kql_j", `ifNull(${json}, '')`, bind("kql_ps", polygons, `if(${valid}, ${bind("kql_pv", asVectors, body("kql_pv"))}, NULL)`));
}

/** A spherical triangle's area (sphere.ts triangleArea: l'Huilier, Girard's formula for wide triangles); a, b, c named. */
function chTriangleArea(a: string, b: string, c: string): string {
  const sides = `tuple(${angleCh(b, c)}, ${angleCh(c, a)}, ${angleCh(a, b)})`;
  const girard = bind("kql_gx", `tuple(${cross(a, b)}, ${cross(b, c)}, ${cross(a, c)})`, `greatest(0, ${angleCh("kql_gx.1", "kql_gx.3")} - ${angleCh("kql_gx.1", "kql_gx.2")} + ${angleCh("kql_gx.2", "kql_gx.3")})`);
  const lhuilier = "4 * atan(sqrt(greatest(0, tan(0.5 * kql_s) * tan(0.5 * (kql_s - kql_sd.1)) * tan(0.5 * (kql_s - kql_sd.2)) * tan(0.5 * (kql_s - kql_sd.3)))))";
  const dmin = "(kql_s - greatest(kql_sd.1, kql_sd.2, kql_sd.3))";
  const chosen = `if(kql_s >= 3e-4 AND ${dmin} < 1e-2 * pow(kql_s, 5), ${bind("kql_ga", girard, `if(${dmin} < kql_s * (0.1 * (kql_ga + 5e-15)), kql_ga, ${lhuilier})`)}, ${lhuilier})`;
  return bind("kql_sd", sides, bind("kql_s", "0.5 * (kql_sd.1 + kql_sd.2 + kql_sd.3)", chosen));
}

/** The area (steradians) a ring of unit vectors encloses, its smaller side (sphere.ts ringArea). */
function chRingArea(ring: string): string {
  const fan = `arrayMap((kql_tb, kql_tc) -> sign(dotProduct(${cross(`${ring}[1]`, "kql_tb")}, kql_tc)) * ${bind("kql_to", `${ring}[1]`, chTriangleArea("kql_to", "kql_tb", "kql_tc"))}, arraySlice(${ring}, 2, length(${ring}) - 2), arraySlice(${ring}, 3))`;
  return bind("kql_fa", `abs(arraySum(${fan}))`, "least(kql_fa, 4 * pi() - kql_fa)");
}

/** The point `r` radians along the geodesic from a to b (sphere.ts pointOnLine); a, b named. */
function chPointOnLine(a: string, b: string, r: string): string {
  const dir = bind("kql_ab", cross(a, b), bind("kql_n", cross("kql_ab", a), "tupleDivideByNumber(kql_n, L2Norm(kql_n))"));
  return bind("kql_q", `tuplePlus(tupleMultiplyByNumber(${a}, cos(${r})), tupleMultiplyByNumber(${dir}, sin(${r})))`, "tupleDivideByNumber(kql_q, L2Norm(kql_q))");
}

/** The point of the edge [a, b] closest to x (sphere.ts project); x, a, b named. */
function chProject(x: string, a: string, b: string): string {
  const nearer = `if(${angleCh(x, a)} <= ${angleCh(x, b)}, ${a}, ${b})`;
  const onArc = `dotProduct(${cross("kql_n", a)}, kql_pp) >= 0 AND dotProduct(${cross(b, "kql_n")}, kql_pp) >= 0`;
  const projected = bind("kql_oc", `tupleMinus(${x}, tupleMultiplyByNumber(kql_n, dotProduct(${x}, kql_n) / dotProduct(kql_n, kql_n)))`, `if(L2Norm(kql_oc) > 0, ${bind("kql_pp", "tupleDivideByNumber(kql_oc, L2Norm(kql_oc))", `if(${onArc}, kql_pp, ${nearer})`)}, ${nearer})`);
  return bind("kql_n", cross(a, b), `if(dotProduct(kql_n, kql_n) = 0, ${a}, ${projected})`);
}

const edgeCentroidCh = (a: string, b: string) =>
  bind("kql_cs", `tuplePlus(${a}, ${b})`, `if(dotProduct(kql_cs, kql_cs) = 0, tuple(0., 0., 0.), tupleMultiplyByNumber(kql_cs, sqrt(dotProduct(tupleMinus(${a}, ${b}), tupleMinus(${a}, ${b})) / dotProduct(kql_cs, kql_cs))))`);

const CH_LINES = {
  length: (json: string) => chLines(json, true, (ls) => `arraySum(arrayMap(kql_v -> arraySum(${edgeLengths("kql_v")}), ${ls})) * ${EARTH_RADIUS}`),
  centroid: (json: string) =>
    chLines(json, true, (ls) => {
      const edges = `arrayFlatten(arrayMap(kql_v -> arrayMap((kql_ca, kql_cb) -> ${edgeCentroidCh("kql_ca", "kql_cb")}, arrayPopBack(kql_v), arrayPopFront(kql_v)), ${ls}))`;
      const sum = "tuple(arraySum(arrayMap(kql_e -> kql_e.1, kql_es)), arraySum(arrayMap(kql_e -> kql_e.2, kql_es)), arraySum(arrayMap(kql_e -> kql_e.3, kql_es)))";
      return bind("kql_es", edges, bind("kql_sum", sum, `if(L2Norm(kql_sum) = 0, NULL, ${chPoint("kql_sum")})`));
    }),
  interpolate: (json: string, fraction: string) =>
    bind(
      "kql_fr",
      fraction,
      `if(coalesce(kql_fr BETWEEN 0 AND 1, false), ${chLines(json, false, (ls) => {
        const f = "assumeNotNull(kql_fr)";
        const between = bind("kql_ia", "kql_v[kql_i]", bind("kql_ib", "kql_v[kql_i + 1]", chPoint(chPointOnLine("kql_ia", "kql_ib", "kql_t - (kql_cum[kql_i] - kql_len[kql_i])"))));
        const point = `multiIf(${f} <= 0, ${chPoint("kql_v[1]")}, kql_i = 0, ${chPoint("kql_v[-1]")}, ${between})`;
        return bind("kql_v", `${ls}[1]`, bind("kql_len", edgeLengths("kql_v"), bind("kql_cum", "arrayCumSum(kql_len)", bind("kql_t", `${f} * arraySum(kql_len)`, bind("kql_i", "arrayFirstIndex(kql_c -> kql_t < kql_c, kql_cum)", point)))));
      })}, NULL)`,
    ),
  locate: (json: string, lon: string, lat: string) =>
    chAtPoint(
      lon,
      lat,
      chLines(json, false, (ls) => {
        const edges = `arrayMap((kql_ja, kql_jb) -> ${bind("kql_jp", chProject("kql_x", "kql_ja", "kql_jb"), `tuple(${angleCh("kql_x", "kql_jp")}, ${angleCh("kql_ja", "kql_jp")})`)}, arrayPopBack(kql_v), arrayPopFront(kql_v))`;
        const body = bind("kql_len", edgeLengths("kql_v"), bind("kql_pr", edges, bind("kql_k", "arrayFirstIndex(kql_e -> kql_e.1 = arrayMin(arrayMap(kql_f -> kql_f.1, kql_pr)), kql_pr)", "if(arraySum(kql_len) = 0, NULL, (arraySum(arraySlice(kql_len, 1, kql_k - 1)) + kql_pr[kql_k].2) / arraySum(kql_len))")));
        return bind("kql_v", `${ls}[1]`, body);
      }),
    ),
  area: (json: string) => chPolygons(json, (ps) => `arraySum(arrayMap(kql_rs -> ${bind("kql_ra", `arrayMap(kql_ring -> ${chRingArea("kql_ring")}, kql_rs)`, "kql_ra[1] - arraySum(arrayPopFront(kql_ra))")}, ${ps})) * ${EARTH_RADIUS * EARTH_RADIUS}`),
  perimeter: (json: string) => chPolygons(json, (ps) => `arraySum(arrayMap(kql_rs -> arraySum(arrayMap(kql_ring -> ${bind("kql_cl", "arrayPushBack(kql_ring, kql_ring[1])", `arraySum(${edgeLengths("kql_cl")})`)}, kql_rs)), ${ps})) * ${EARTH_RADIUS}`),
};

/** The point of the edges (an array of (a, b) tuples) closest to x, as a tuple (distance in radians, point); x named. */
function chClosest(x: string, edges: string): string {
  const all = `arrayMap(kql_e -> ${bind("kql_jp", chProject(x, "kql_e.1", "kql_e.2"), `tuple(${angleCh(x, "kql_jp")}, kql_jp)`)}, ${edges})`;
  return bind("kql_all", all, "kql_all[arrayFirstIndex(kql_t -> kql_t.1 = arrayMin(arrayMap(kql_u -> kql_u.1, kql_all)), kql_all)]");
}

const chLineEdges = (ls: string) => `arrayFlatten(arrayMap(kql_v -> arrayZip(arrayPopBack(kql_v), arrayPopFront(kql_v)), ${ls}))`;
const chRingEdges = (ring: string) => `arrayZip(${ring}, arrayPushBack(arrayPopFront(${ring}), ${ring}[1]))`;
const chPolygonEdges = (ps: string) => `arrayFlatten(arrayMap(kql_rs -> arrayFlatten(arrayMap(kql_ring -> ${chRingEdges("kql_ring")}, kql_rs)), ${ps}))`;

/** Whether x lies in the region a ring bounds (sphere.ts inRing: the fan from -x); x and the ring named. */
function chInRing(x: string, ring: string): string {
  const signed = (o: string, a: string, b: string) => `sign(dotProduct(${cross(o, a)}, ${b})) * ${chTriangleArea(o, a, b)}`;
  const fromVertex = `arraySum(arrayMap((kql_tb, kql_tc) -> ${bind("kql_to", `${ring}[1]`, signed("kql_to", "kql_tb", "kql_tc"))}, arraySlice(${ring}, 2, length(${ring}) - 2), arraySlice(${ring}, 3)))`;
  const fromOpposite = `arraySum(arrayMap(kql_ed -> ${bind("kql_ea", "kql_ed.1", bind("kql_eb", "kql_ed.2", signed("kql_nx", "kql_ea", "kql_eb")))}, ${chRingEdges(ring)}))`;
  return bind("kql_fv", fromVertex, bind("kql_left", `if(kql_fv < 0, kql_fv + 4 * pi(), kql_fv)`, bind("kql_nx", `tupleNegate(${x})`, `(kql_left <= 2 * pi()) = (${fromOpposite} < kql_left - 2 * pi())`)));
}

const chInPolygons = (x: string, ps: string) => `arrayExists(kql_rs -> ${bind("kql_sh", "kql_rs[1]", chInRing(x, "kql_sh"))} AND NOT arrayExists(kql_hole -> ${chInRing(x, "kql_hole")}, arrayPopFront(kql_rs)), ${ps})`;

/** `body` over the point (lon, lat) as a named unit vector; null for invalid coordinates. */
const chAtPoint = (lon: string, lat: string, body: string) =>
  bind("kql_lon", lon, bind("kql_lat", lat, `if(kql_lon BETWEEN -180 AND 180 AND kql_lat BETWEEN -90 AND 90, ${bind("kql_x", vec("assumeNotNull(kql_lon)", "assumeNotNull(kql_lat)"), body)}, NULL)`));

const CH_NEAR = {
  distanceToLine: (lon: string, lat: string, json: string) => chAtPoint(lon, lat, chLines(json, true, (ls) => `${chClosest("kql_x", chLineEdges(ls))}.1 * ${EARTH_RADIUS}`)),
  closestOnLine: (lon: string, lat: string, json: string) => chAtPoint(lon, lat, chLines(json, true, (ls) => chPoint(`${chClosest("kql_x", chLineEdges(ls))}.2`))),
  inPolygon: (lon: string, lat: string, json: string) => chAtPoint(lon, lat, chPolygons(json, (ps) => chInPolygons("kql_x", ps))),
  distanceToPolygon: (lon: string, lat: string, json: string) => chAtPoint(lon, lat, chPolygons(json, (ps) => `if(${chInPolygons("kql_x", ps)}, 0, ${chClosest("kql_x", chPolygonEdges(ps))}.1 * ${EARTH_RADIUS})`)),
  closestOnPolygon: (lon: string, lat: string, json: string) => chAtPoint(lon, lat, chPolygons(json, (ps) => chPoint(`(if(${chInPolygons("kql_x", ps)}, kql_x, ${chClosest("kql_x", chPolygonEdges(ps))}.2))`))),
};

/* geo_from_wkt (wkt.ts): the same grammar and rewrites as ClickHouse regular expressions. */

/** A ClickHouse string literal. */
const chText = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
/** A replacement's `$1` groups as ClickHouse's `\1`. */
const chReplacement = (text: string) => chText(text.replace(/\$(\d)/g, "\\$1"));

function chWktGeometry(text: string): string {
  const types = WKT_TYPES.map(([keyword, type]) => `kql_kw = '${keyword}', '${type}'`).join(", ");
  const rewritten = WKT_REWRITES.reduce((sql, [pattern, replacement]) => `replaceRegexpAll(${sql}, ${chText(pattern)}, ${chReplacement(replacement)})`, `replaceRegexpOne(${text}, '^\\\\s*[A-Za-z]+', '')`);
  const coordinates = `multiIf(kql_kw = 'POINT', substring(kql_co, 2, length(kql_co) - 2), kql_kw = 'MULTIPOINT', replaceRegexpAll(kql_co, ${chText(WKT_MULTIPOINT_REWRITE[0])}, ${chReplacement(WKT_MULTIPOINT_REWRITE[1])}), kql_co)`;
  return bind("kql_kw", `upper(extract(${text}, '^\\\\s*([A-Za-z]+)'))`, bind("kql_co", rewritten, `concat('{"type":"', multiIf(${types}, ''), '","coordinates":', ${coordinates}, '}')`));
}

function chGeoFromWkt(wkt: string): string {
  const members = `extractAll(replaceRegexpOne(kql_w, '^\\\\s*[A-Za-z]+', ''), ${chText(`(?i)${WKT_GEOMETRY}`)})`;
  return bind(
    "kql_w",
    `ifNull(${wkt}, '')`,
    `multiIf(match(kql_w, ${chText(`(?i)^\\s*${WKT_GEOMETRY}\\s*$`)}), ${chWktGeometry("kql_w")}, match(kql_w, ${chText(`(?i)^\\s*${WKT_COLLECTION}\\s*$`)}), concat('{"type":"GeometryCollection","geometries":[', arrayStringConcat(arrayMap(kql_g -> ${chWktGeometry("kql_g")}, ${members}), ','), ']}'), NULL)`,
  );
}

/* geo_line_densify / geo_polygon_densify (sphere.ts densify): the same halving, DENSIFY_LEVELS rounds of arrayFold. */

/** The planar edge p → q ((lon, lat) tuples, named) deviates from its geodesic by more than kql_tol radians. */
const chDeviates = (p: string, q: string) =>
  bind("kql_dva", vec(`${p}.1`, `${p}.2`), bind("kql_dvb", vec(`${q}.1`, `${q}.2`), bind("kql_dn", cross("kql_dva", "kql_dvb"), `L2Norm(kql_dn) > 0 AND abs(asin(least(1, abs(dotProduct(${vec(`(${p}.1 + ${q}.1) / 2`, `(${p}.2 + ${q}.2) / 2`)}, kql_dn)) / L2Norm(kql_dn)))) > kql_tol`)));

/** A line of [lon, lat] positions densified, as GeoJSON coordinates text (points as tuples: arrayFlatten flattens every array level). */
function chDensified(line: string): string {
  const round = `arrayPushBack(arrayFlatten(arrayMap((kql_dp, kql_dq) -> if(${chDeviates("kql_dp", "kql_dq")}, [kql_dp, tuple((kql_dp.1 + kql_dq.1) / 2, (kql_dp.2 + kql_dq.2) / 2)], [kql_dp]), arrayPopBack(kql_acc), arrayPopFront(kql_acc))), kql_acc[-1])`;
  const points = `arrayFold((kql_acc, kql_lv) -> ${round}, range(${DENSIFY_LEVELS}), arrayMap(kql_q -> tuple(kql_q[1], kql_q[2]), ${line}))`;
  return `concat('[', arrayStringConcat(arrayMap(kql_q -> concat('[', toString(kql_q.1), ',', toString(kql_q.2), ']'), ${points}), ','), ']')`;
}

const chTolerance = (tolerance: string, body: string) => `if(${tolerance} BETWEEN 0.1 AND 10000, ${bind("kql_tol", `assumeNotNull(${tolerance}) / ${EARTH_RADIUS}`, body)}, NULL)`;
const chJoin = (array: string) => `concat('[', arrayStringConcat(${array}, ','), ']')`;

const CH_DENSIFY = {
  line: (json: string, tolerance: string) =>
    chTolerance(
      tolerance,
      chLines(json, true, () => `concat('{"type":"', ${geoType("kql_j")}, '","coordinates":', if(${geoType("kql_j")} = 'LineString', ${chDensified("kql_ls[1]")}, ${chJoin(`arrayMap(kql_dl -> ${chDensified("kql_dl")}, kql_ls)`)}), '}')`),
    ),
  polygon: (json: string, tolerance: string) =>
    chTolerance(
      tolerance,
      chPolygons(json, () => {
        const rings = (polygon: string) => chJoin(`arrayMap(kql_dr -> ${chDensified("kql_dr")}, ${polygon})`);
        return `concat('{"type":"', ${geoType("kql_j")}, '","coordinates":', if(${geoType("kql_j")} = 'Polygon', ${rings("kql_ps[1]")}, ${chJoin(`arrayMap(kql_dpg -> ${rings("kql_dpg")}, kql_ps)`)}), '}')`;
      }),
    ),
};

/* geo_polygon_centroid (sphere.ts geoPolygonCentroid): S2's true centroids of the fan's triangles. */

/** The sum of an array of 3-tuples (named). */
const chSum3 = (array: string) => `tuple(arraySum(arrayMap(kql_s3 -> kql_s3.1, ${array})), arraySum(arrayMap(kql_s3 -> kql_s3.2, ${array})), arraySum(arrayMap(kql_s3 -> kql_s3.3, ${array})))`;

/** A triangle's centroid times its signed area (sphere.ts triangleCentroid); a, b, c named. */
function chTriangleCentroid(a: string, b: string, c: string): string {
  const r = (side: string) => bind("kql_sd", side, "if(kql_sd = 0, 1, kql_sd / sin(kql_sd))");
  const rows = bind("kql_cx", `tuple(${a}.1, ${b}.1 - ${a}.1, ${c}.1 - ${a}.1)`, bind("kql_cy", `tuple(${a}.2, ${b}.2 - ${a}.2, ${c}.2 - ${a}.2)`, bind("kql_cz", `tuple(${a}.3, ${b}.3 - ${a}.3, ${c}.3 - ${a}.3)`, `tuple(0.5 * dotProduct(${cross("kql_cy", "kql_cz")}, kql_rr), 0.5 * dotProduct(${cross("kql_cz", "kql_cx")}, kql_rr), 0.5 * dotProduct(${cross("kql_cx", "kql_cy")}, kql_rr))`)));
  return bind("kql_ra", r(angleCh(b, c)), bind("kql_rr", `tuple(kql_ra, ${r(angleCh(c, a))} - kql_ra, ${r(angleCh(a, b))} - kql_ra)`, rows));
}

/** A ring's centroid times its area over its smaller side (sphere.ts ringCentroid); the ring named. */
function chRingCentroid(ring: string): string {
  const fan = (body: string) => `arrayMap((kql_tb, kql_tc) -> ${bind("kql_to", `${ring}[1]`, body)}, arraySlice(${ring}, 2, length(${ring}) - 2), arraySlice(${ring}, 3))`;
  const area = `arraySum(${fan(`sign(dotProduct(${cross("kql_to", "kql_tb")}, kql_tc)) * ${chTriangleArea("kql_to", "kql_tb", "kql_tc")}`)})`;
  return bind("kql_tcs", fan(chTriangleCentroid("kql_to", "kql_tb", "kql_tc")), `tupleMultiplyByNumber(${chSum3("kql_tcs")}, if(${area} < 0, -1, 1))`);
}

const chPolygonCentroid = (json: string) =>
  chPolygons(json, (ps) => {
    const perPolygon = `arrayMap(kql_rs -> ${bind("kql_rc", "arrayMap(kql_ring -> " + chRingCentroid("kql_ring") + ", kql_rs)", `tupleMinus(kql_rc[1], ${chSum3("arrayPopFront(kql_rc)")})`)}, ${ps})`;
    return bind("kql_pcs", perPolygon, bind("kql_sum", chSum3("kql_pcs"), `if(L2Norm(kql_sum) = 0, NULL, ${chPoint("kql_sum")})`));
  });

/* geo_intersects_* (sphere.ts edgesMeet): a crossing (S2's SimpleCrossing), or an end within TOUCH of the other's edges. */

function chEdgesCross(a: string, b: string, c: string, d: string): string {
  return bind("kql_ab", cross(a, b), bind("kql_acb", `-dotProduct(kql_ab, ${c})`, `kql_acb * dotProduct(kql_ab, ${d}) > 0 AND ${bind("kql_cd", cross(c, d), `kql_acb * -dotProduct(kql_cd, ${b}) > 0 AND kql_acb * dotProduct(kql_cd, ${a}) > 0`)}`));
}

/** Whether two arrays of (a, b) edges meet (sphere.ts edgesMeet). */
function chEdgesMeet(one: string, other: string): string {
  const touches = (edges: string, others: string) => `arrayExists(kql_te -> ${chClosest("kql_te.1", others)}.1 <= ${TOUCH} OR ${chClosest("kql_te.2", others)}.1 <= ${TOUCH}, ${edges})`;
  const meet = `arrayExists(kql_e1 -> arrayExists(kql_e2 -> ${chEdgesCross("kql_e1.1", "kql_e1.2", "kql_e2.1", "kql_e2.2")}, kql_eb2), kql_eb1) OR ${touches("kql_eb1", "kql_eb2")} OR ${touches("kql_eb2", "kql_eb1")}`;
  return bind("kql_eb1", one, bind("kql_eb2", other, meet));
}

const CH_INTERSECTS = {
  lines: (json1: string, json2: string) => chLines(json1, true, (ls) => bind("kql_la", ls, chLines(json2, true, (other) => chEdgesMeet(chLineEdges("kql_la"), chLineEdges(other))))),
  lineWithPolygon: (line: string, polygon: string) =>
    chLines(line, true, (ls) => bind("kql_la", ls, chPolygons(polygon, (ps) => `arrayExists(kql_ll -> arrayExists(kql_lv -> ${chInPolygons("kql_lv", ps)}, kql_ll), kql_la) OR ${chEdgesMeet(chLineEdges("kql_la"), chPolygonEdges(ps))}`))),
  polygons: (json1: string, json2: string) =>
    chPolygons(json1, (ps) =>
      bind("kql_pa", ps, chPolygons(json2, (other) => `arrayExists(kql_pvx -> ${chInPolygons("kql_pvx", other)}, arrayFlatten(kql_pa)) OR arrayExists(kql_pvx -> ${chInPolygons("kql_pvx", "kql_pa")}, arrayFlatten(${other})) OR ${chEdgesMeet(chPolygonEdges("kql_pa"), chPolygonEdges(other))}`)),
    ),
};

/* H3 cells' hierarchy (h3.ts for DuckDB): ClickHouse's own H3 functions, given a valid index only (they throw on another). */

/** `body` over a valid token's index kql_h3 and level kql_h3l; null for an invalid token. */
function chH3Cell(token: string, body: string): string {
  return bind("kql_h3t", `ifNull(${token}, '')`, bind("kql_h3v", `match(kql_h3t, '^[0-9a-fA-F]{1,16}$') AND h3IsValid(stringToH3(kql_h3t))`, `if(kql_h3v, ${bind("kql_h3", "if(kql_h3v, stringToH3(kql_h3t), toUInt64(576495936675512319))", bind("kql_h3l", "toInt64(h3GetResolution(kql_h3))", body))}, NULL)`));
}

const CH_H3 = {
  level: (token: string) => chH3Cell(token, "kql_h3l"),
  parent: (token: string, level?: string) =>
    chH3Cell(token, bind("kql_h3r", level ?? "kql_h3l - 1", "if(kql_h3r BETWEEN 0 AND kql_h3l, h3ToString(h3ToParent(kql_h3, toUInt8(if(kql_h3r BETWEEN 0 AND kql_h3l, kql_h3r, 0)))), NULL)")),
  children: (token: string, level?: string) =>
    chH3Cell(
      token,
      bind("kql_h3r", level ?? "kql_h3l + 1", "if(kql_h3r BETWEEN kql_h3l AND least(kql_h3l + 5, 15), concat('[', arrayStringConcat(arrayMap(kql_c -> concat('\"', h3ToString(kql_c), '\"'), h3ToChildren(kql_h3, toUInt8(if(kql_h3r BETWEEN kql_h3l AND least(kql_h3l + 5, 15), kql_h3r, kql_h3l)))), ','), ']'), NULL)"),
    ),
};

/*
 * S2 cells (s2.ts for DuckDB; chdb has no S2 functions): the same projection, Hilbert-curve lookup
 * tables and bit arithmetic in ClickHouse's SQL. A cell is (face, i, j) of its leaf and its id.
 */
const S2_MAX = 1073741824;
/** S2's per-level Hilbert tables (orientation × (i bit, j bit) → position; orientation × position → (i, j) bits; position → orientation change). */
const IJ_TO_POS = "[[0, 1, 3, 2], [0, 3, 1, 2], [2, 3, 1, 0], [2, 1, 3, 0]]::Array(Array(UInt64))";
const POS_TO_IJ = "[[0, 1, 3, 2], [0, 2, 3, 1], [3, 2, 0, 1], [3, 1, 0, 2]]::Array(Array(UInt64))";
const POS_TO_ORIENTATION = "[1, 0, 0, 3]::Array(UInt64)";
const u64 = (x: string) => `toUInt64(${x})`;
const S2 = {
  stToUv: (s: string) => bind("kql_st", s, "if(kql_st >= 0.5, (1 / 3) * (4 * kql_st * kql_st - 1), (1 / 3) * (1 - 4 * (1 - kql_st) * (1 - kql_st)))"),
  uvToSt: (u: string) => bind("kql_su", u, "if(kql_su >= 0, 0.5 * sqrt(1 + 3 * kql_su), 1 - 0.5 * sqrt(1 - 3 * kql_su))"),
  stToIj: (s: string) => `toInt64(least(greatest(floor(${S2_MAX} * ${s}), 0), ${S2_MAX - 1}))`,
  faceUvToXyz: (face: string, u: string, v: string) =>
    bind("kql_fu", u, bind("kql_fv", v, `multiIf(${face} = 0, tuple(1., kql_fu, kql_fv), ${face} = 1, tuple(-kql_fu, 1., kql_fv), ${face} = 2, tuple(-kql_fu, -kql_fv, 1.), ${face} = 3, tuple(-1., -kql_fv, -kql_fu), ${face} = 4, tuple(kql_fv, -1., -kql_fu), tuple(kql_fv, kql_fu, -1.))`)),
  /** (face, u, v) of a named xyz tuple (s2.ts xyzToFaceUv). */
  xyzToFaceUv: (c: string) =>
    bind(
      "kql_xf",
      `multiIf(abs(${c}.1) > abs(${c}.2), if(abs(${c}.1) > abs(${c}.3), 0, 2), abs(${c}.2) > abs(${c}.3), 1, 2)`,
      bind("kql_xface", `kql_xf + if(multiIf(kql_xf = 0, ${c}.1, kql_xf = 1, ${c}.2, ${c}.3) < 0, 3, 0)`, `tuple(kql_xface, multiIf(kql_xface = 0, ${c}.2 / ${c}.1, kql_xface = 1, -${c}.1 / ${c}.2, kql_xface = 2, -${c}.1 / ${c}.3, kql_xface = 3, ${c}.3 / ${c}.1, kql_xface = 4, ${c}.3 / ${c}.2, -${c}.2 / ${c}.3), multiIf(kql_xface = 0, ${c}.3 / ${c}.1, kql_xface = 1, ${c}.3 / ${c}.2, kql_xface = 2, -${c}.2 / ${c}.3, kql_xface = 3, ${c}.2 / ${c}.1, kql_xface = 4, -${c}.1 / ${c}.2, -${c}.1 / ${c}.3))`),
    ),
  /**
   * The leaf cell id of (face, i, j): S2's Hilbert curve a level at a time (the lookup tables of
   * s2.ts are these steps four levels at once): the position of (i, j)'s bits in the orientation, the
   * orientation turned by the position.
   */
  fromFaceIj: (face: string, i: string, j: string) => {
    const ij = `bitOr(bitShiftLeft(bitAnd(bitShiftRight(${u64(i)}, 30 - kql_L), 1), 1), bitAnd(bitShiftRight(${u64(j)}, 30 - kql_L), 1))`;
    const step = bind("kql_hp", `${IJ_TO_POS}[kql_acc.2 + 1][${ij} + 1]`, `tuple(toUInt64(bitOr(bitShiftLeft(kql_acc.1, 2), kql_hp)), toUInt64(bitXor(kql_acc.2, ${POS_TO_ORIENTATION}[kql_hp + 1])))`);
    const fold = `arrayFold((kql_acc, kql_L) -> ${step}, range(1, 31), tuple(toUInt64(0), ${u64(`bitAnd(${face}, 1)`)}))`;
    return `bitOr(bitOr(bitShiftLeft(${u64(face)}, 61), bitShiftLeft(${fold}.1, 1)), 1)`;
  },
  /** (face, i, j) of a cell id: the same steps backwards (a cell's id past its level decodes to a leaf inside it). */
  toFaceIj: (id: string) => {
    const step = bind(
      "kql_hij",
      `${POS_TO_IJ}[kql_acc.3 + 1][bitAnd(bitShiftRight(${id}, 2 * (30 - kql_L) + 1), 3) + 1]`,
      `tuple(toUInt64(bitOr(kql_acc.1, bitShiftLeft(bitShiftRight(kql_hij, 1), 30 - kql_L))), toUInt64(bitOr(kql_acc.2, bitShiftLeft(bitAnd(kql_hij, 1), 30 - kql_L))), toUInt64(bitXor(kql_acc.3, ${POS_TO_ORIENTATION}[bitAnd(bitShiftRight(${id}, 2 * (30 - kql_L) + 1), 3) + 1])))`,
    );
    const fold = `arrayFold((kql_acc, kql_L) -> ${step}, range(1, 31), tuple(toUInt64(0), toUInt64(0), bitAnd(bitShiftRight(${id}, 61), 1)))`;
    return bind("kql_fij", fold, `tuple(toInt64(bitShiftRight(${id}, 61)), toInt64(kql_fij.1), toInt64(kql_fij.2))`);
  },
  parent: (id: string, level: string) => bind("kql_lsb", `bitShiftLeft(toUInt64(1), 2 * (30 - ${level}))`, `bitOr(bitAnd(${id}, bitNot(kql_lsb - 1)), kql_lsb)`),
  token: (id: string) => `replaceRegexpOne(lower(leftPad(hex(${id}), 16, '0')), '0+$', '')`,
  /** A point on a face at leaf coordinates (si, ti) / 2^31 as (longitude, latitude). */
  lonLat: (xyz: string) => bind("kql_ll", xyz, "tuple(degrees(atan2(kql_ll.2, kql_ll.1)), degrees(atan2(kql_ll.3, hypot(kql_ll.1, kql_ll.2))))"),
};

/** `body` over a valid token's cell: kql_cid, kql_lvl, kql_cf (face, i, j of a leaf in it), kql_size, kql_i0, kql_j0; null for an invalid token. */
function chS2Cell(token: string, body: string): string {
  const zeros = "(bitCount(bitXor(kql_rid, kql_rid - 1)) - 1)";
  const valid = `match(kql_tok, '^[0-9a-fA-F]{1,16}$') AND kql_rid != 0 AND bitShiftRight(kql_rid, 61) <= 5 AND ${zeros} % 2 = 0`;
  const inner = bind("kql_cf", S2.toFaceIj("kql_cid"), bind("kql_size", `toInt64(bitShiftLeft(toUInt64(1), 30 - kql_lvl))`, bind("kql_i0", "bitAnd(kql_cf.2, -kql_size)", bind("kql_j0", "bitAnd(kql_cf.3, -kql_size)", body))));
  return bind(
    "kql_tok",
    `ifNull(${token}, '')`,
    bind("kql_rid", "reinterpretAsUInt64(reverse(unhex(rightPad(kql_tok, 16, '0'))))", `if(${valid}, ${bind("kql_cid", "kql_rid", bind("kql_lvl", `30 - intDiv(${zeros}, 2)`, inner))}, NULL)`),
  );
}

/** (i, j) steps of AppendAllNeighbors' order (s2.ts), each neighbour's leaf at (i0 + di·size, j0 + dj·size). */
const S2_STEPS = [[-1, -1], [1, -1], [0, -1], [0, 1], [-1, 0], [1, 0], [-1, 1], [1, 1]] as const;

/** The leaf at (face, ni, nj), or across the face's edge (s2.ts fromFaceIjWrap); ni, nj named. */
function chS2Neighbour(ni: string, nj: string): string {
  const clamp = (x: string) => `least(greatest(${x}, -1), ${S2_MAX})`;
  const coordinate = (x: string) => `least(greatest((2 * (${clamp(x)} - ${S2_MAX / 2}) + 1) / ${S2_MAX}, -(1 + 2.220446049250313e-16)), 1 + 2.220446049250313e-16)`;
  const across = bind("kql_wc", S2.faceUvToXyz("kql_cf.1", coordinate(ni), coordinate(nj)), bind("kql_wf", S2.xyzToFaceUv("kql_wc"), `tuple(kql_wf.1, ${S2.stToIj("0.5 * (kql_wf.2 + 1)")}, ${S2.stToIj("0.5 * (kql_wf.3 + 1)")})`));
  const leaf = `if(${ni} >= 0 AND ${ni} < ${S2_MAX} AND ${nj} >= 0 AND ${nj} < ${S2_MAX}, tuple(kql_cf.1, ${ni}, ${nj}), ${across})`;
  return bind("kql_nl", leaf, S2.fromFaceIj("kql_nl.1", "kql_nl.2", "kql_nl.3"));
}

const CH_S2 = {
  pointToCell: (lon: string, lat: string, level: string) => {
    const cell = S2.fromFaceIj("kql_pf.1", S2.stToIj(S2.uvToSt("kql_pf.2")), S2.stToIj(S2.uvToSt("kql_pf.3")));
    const token = bind("kql_pxyz", vec("assumeNotNull(kql_plon)", "assumeNotNull(kql_plat)"), bind("kql_pf", S2.xyzToFaceUv("kql_pxyz"), S2.token(S2.parent(cell, "assumeNotNull(kql_plv)"))));
    return bind("kql_plon", lon, bind("kql_plat", lat, bind("kql_plv", level, `if(kql_plon BETWEEN -180 AND 180 AND kql_plat BETWEEN -90 AND 90 AND kql_plv BETWEEN 0 AND 30, ${token}, NULL)`)));
  },
  centralPoint: (token: string) => {
    const delta = "if(bitAnd(kql_cid, 1) = 1, 1, if(bitAnd(bitXor(toUInt64(kql_cf.2), bitShiftRight(kql_cid, 2)), 1) = 1, 2, 0))";
    const point = S2.lonLat(S2.faceUvToXyz("kql_cf.1", S2.stToUv(`(2 * kql_cf.2 + ${delta}) / ${2 * S2_MAX}`), S2.stToUv(`(2 * kql_cf.3 + ${delta}) / ${2 * S2_MAX}`)));
    return chS2Cell(token, bind("kql_cp", point, `concat('{"type":"Point","coordinates":[', toString(kql_cp.1), ',', toString(kql_cp.2), ']}')`));
  },
  polygon: (token: string) => {
    const corner = (di: number, dj: number) =>
      bind("kql_cv", S2.lonLat(S2.faceUvToXyz("kql_cf.1", S2.stToUv(`(kql_i0 + ${di} * kql_size) / ${S2_MAX}`), S2.stToUv(`(kql_j0 + ${dj} * kql_size) / ${S2_MAX}`))), "concat('[', toString(kql_cv.1), ',', toString(kql_cv.2), ']')");
    // S2Cell::GetVertex's order, the first again to close the ring.
    return chS2Cell(token, bind("kql_c0", corner(0, 0), `concat('{"type":"Polygon","coordinates":[[', kql_c0, ',', ${corner(1, 0)}, ',', ${corner(1, 1)}, ',', ${corner(0, 1)}, ',', kql_c0, ']]}')`));
  },
  neighbors: (token: string) => {
    const cells = S2_NEIGHBOUR_ORDER.map((k) => {
      const [di, dj] = S2_STEPS[k]!;
      return bind("kql_ni", `kql_i0 + ${di} * kql_size`, bind("kql_nj", `kql_j0 + ${dj} * kql_size`, S2.parent(chS2Neighbour("kql_ni", "kql_nj"), "kql_lvl")));
    });
    const list = `arrayFilter(kql_t -> kql_t != kql_cid, arrayDistinct([${cells.join(", ")}]))`;
    return chS2Cell(token, `concat('[', arrayStringConcat(arrayMap(kql_t -> concat('"', ${S2.token("kql_t")}, '"'), ${list}), ','), ']')`);
  },
};

export const GEO: readonly FunctionEntry[] = [
  scalar("geo_distance_2points", {
    args: ["p1_longitude: real, p1_latitude: real, p2_longitude: real, p2_latitude: real", "p1_longitude: real, p1_latitude: real, p2_longitude: real, p2_latitude: real, use_spheroid: const bool"],
    result: "real",
    nulls: "may",
    // The spheroid (WGS-84 geodesics) is not computed: a literal true is refused, false is the sphere.
    checkConsts: (consts) => (consts[4] === true ? "geo_distance_2points(…, use_spheroid = true): distances on the WGS-84 spheroid are not supported; the sphere (use_spheroid = false, the default) is" : undefined),
    sql: both((args) => {
      const [a, b] = points(args.slice(0, 4));
      return guarded(valid(a!, b!), distance(a!, b!));
    }),
    doc: "the shortest distance in metres between two points on the Earth (a sphere); null for invalid coordinates",
  }),
  scalar("geo_point_in_circle", {
    args: "p_longitude: real, p_latitude: real, pc_longitude: real, pc_latitude: real, c_radius: real",
    result: "bool",
    nulls: "may",
    sql: both((args) => {
      const [p, c] = points(args.slice(0, 4));
      return guarded(`${valid(p!, c!)} AND ${args[4]} > 0`, `${distance(p!, c!)} <= ${args[4]}`);
    }),
    doc: "whether the point lies in the spherical cap of the centre and radius (metres, measured along the surface); null for invalid coordinates or a radius not above 0",
  }),
  scalar("geo_azimuth", {
    args: "p1_longitude: real, p1_latitude: real, p2_longitude: real, p2_latitude: real",
    result: "real",
    nulls: "may",
    sql: both((args) => {
      const [a, b] = points(args);
      return guarded(`${valid(a!, b!)} AND ${distinct(a!, b!)}`, bearing(a!, b!));
    }),
    doc: "the angle in radians, clockwise from true north, of the line from p1 to p2; null for invalid, equal or antipodal points",
  }),
  scalar("geo_angle", {
    args: "p1_longitude: real, p1_latitude: real, p2_longitude: real, p2_latitude: real, p3_longitude: real, p3_latitude: real",
    result: "real",
    nulls: "may",
    sql: both((args) => {
      const [a, b, c] = points(args);
      // Clockwise from the line [p1, p2] to the line [p2, p3], both seen from p2: [0, 2π).
      const angle = `(${bearing(b!, c!)} - ${bearing(b!, a!)})`;
      return guarded(`${valid(a!, b!, c!)} AND ${distinct(a!, b!)} AND ${distinct(b!, c!)}`, positive(angle));
    }),
    doc: "the angle in radians in [0, 2π), clockwise, between the lines [p1, p2] and [p2, p3]; null for invalid coordinates or equal or antipodal neighbours",
  }),
  scalar("geo_line_length", {
    args: "lineString: dynamic",
    result: "real",
    nulls: "may",
    sql: { duckdb: "kql_geo_line_length(CAST($0 AS VARCHAR))", clickhouse: ({ args: [line] }) => CH_LINES.length(line!) },
    doc: "the length in metres of a GeoJSON LineString or MultiLineString (the sum of its lines); null for an invalid line",
  }),
  scalar("geo_line_centroid", {
    args: "lineString: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_line_centroid(CAST($0 AS VARCHAR)) AS JSON)", clickhouse: ({ args: [line] }) => CH_LINES.centroid(line!) },
    doc: "the centroid of a GeoJSON LineString or MultiLineString as a GeoJSON point; null for an invalid line",
  }),
  scalar("geo_line_interpolate_point", {
    args: "lineString: dynamic, fraction: real",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_line_interpolate_point(CAST($0 AS VARCHAR), $1) AS JSON)", clickhouse: ({ args: [line, fraction] }) => CH_LINES.interpolate(line!, fraction!) },
    doc: "the GeoJSON point at the fraction (0 to 1) of a LineString's length; null for an invalid line or fraction",
  }),
  scalar("geo_line_locate_point", {
    args: ["lineString: dynamic, longitude: real, latitude: real", "lineString: dynamic, longitude: real, latitude: real, use_spheroid: const bool"],
    result: "real",
    nulls: "may",
    checkConsts: (consts) => (consts[3] === true ? "geo_line_locate_point(…, use_spheroid = true): lines on the WGS-84 spheroid are not supported; the sphere (use_spheroid = false, the default) is" : undefined),
    sql: { duckdb: "kql_geo_line_locate_point(CAST($0 AS VARCHAR), $1, $2)", clickhouse: ({ args: [line, lon, lat] }) => CH_LINES.locate(line!, lon!, lat!) },
    doc: "the fraction (0 to 1) of a LineString's length at its point closest to the given point; null for an invalid line or point",
  }),
  scalar("geo_polygon_area", {
    args: "polygon: dynamic",
    result: "real",
    nulls: "may",
    sql: { duckdb: "kql_geo_polygon_area(CAST($0 AS VARCHAR))", clickhouse: ({ args: [polygon] }) => CH_LINES.area(polygon!) },
    doc: "the area in square metres of a GeoJSON Polygon (its shell less its holes) or MultiPolygon (the sum of its polygons); null for an invalid polygon",
  }),
  scalar("geo_polygon_perimeter", {
    args: "polygon: dynamic",
    result: "real",
    nulls: "may",
    sql: { duckdb: "kql_geo_polygon_perimeter(CAST($0 AS VARCHAR))", clickhouse: ({ args: [polygon] }) => CH_LINES.perimeter(polygon!) },
    doc: "the perimeter in metres of a GeoJSON Polygon or MultiPolygon (the length of all its rings); null for an invalid polygon",
  }),
  scalar("geo_distance_point_to_line", {
    args: "longitude: real, latitude: real, lineString: dynamic",
    result: "real",
    nulls: "may",
    sql: { duckdb: "kql_geo_distance_point_to_line($0, $1, CAST($2 AS VARCHAR))", clickhouse: ({ args: [lon, lat, line] }) => CH_NEAR.distanceToLine(lon!, lat!, line!) },
    doc: "the shortest distance in metres from the point to a GeoJSON LineString or MultiLineString; null for an invalid point or line",
  }),
  scalar("geo_closest_point_on_line", {
    args: "longitude: real, latitude: real, lineString: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_closest_point_on_line($0, $1, CAST($2 AS VARCHAR)) AS JSON)", clickhouse: ({ args: [lon, lat, line] }) => CH_NEAR.closestOnLine(lon!, lat!, line!) },
    doc: "the point of a GeoJSON LineString or MultiLineString closest to the given point, as a GeoJSON point; null for an invalid point or line",
  }),
  scalar("geo_point_in_polygon", {
    args: "longitude: real, latitude: real, polygon: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "kql_geo_point_in_polygon($0, $1, CAST($2 AS VARCHAR))", clickhouse: ({ args: [lon, lat, polygon] }) => CH_NEAR.inPolygon(lon!, lat!, polygon!) },
    doc: "whether the point lies in a GeoJSON Polygon (in its shell, not in a hole) or in any polygon of a MultiPolygon; null for an invalid point or polygon",
  }),
  scalar("geo_distance_point_to_polygon", {
    args: "longitude: real, latitude: real, polygon: dynamic",
    result: "real",
    nulls: "may",
    sql: { duckdb: "kql_geo_distance_point_to_polygon($0, $1, CAST($2 AS VARCHAR))", clickhouse: ({ args: [lon, lat, polygon] }) => CH_NEAR.distanceToPolygon(lon!, lat!, polygon!) },
    doc: "the shortest distance in metres from the point to a GeoJSON Polygon or MultiPolygon, 0 inside it; null for an invalid point or polygon",
  }),
  scalar("geo_closest_point_on_polygon", {
    args: "longitude: real, latitude: real, polygon: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_closest_point_on_polygon($0, $1, CAST($2 AS VARCHAR)) AS JSON)", clickhouse: ({ args: [lon, lat, polygon] }) => CH_NEAR.closestOnPolygon(lon!, lat!, polygon!) },
    doc: "the point of a GeoJSON Polygon or MultiPolygon closest to the given point (the point itself inside it), as a GeoJSON point; null for an invalid point or polygon",
  }),
  scalar("geo_from_wkt", {
    args: "wkt: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_from_wkt($0) AS JSON)", clickhouse: ({ args: [wkt] }) => chGeoFromWkt(wkt!) },
    doc: "a geometry's well-known text (POINT, LINESTRING, POLYGON, their MULTI forms, GEOMETRYCOLLECTION) as GeoJSON; null for invalid or unsupported text",
  }),
  scalar("geo_line_densify", {
    args: ["lineString: dynamic", "lineString: dynamic, tolerance: real", "lineString: dynamic, tolerance: real, preserve_crossing: const bool"],
    result: "dynamic",
    nulls: "may",
    checkConsts: (consts) => (consts[2] === true ? "geo_line_densify(…, preserve_crossing = true): edges kept across the antimeridian are not supported" : undefined),
    sql: { duckdb: ({ args: [line, tolerance] }) => `CAST(kql_geo_line_densify(CAST(${line} AS VARCHAR), ${tolerance ?? "10"}) AS JSON)`, clickhouse: ({ args: [line, tolerance] }) => CH_DENSIFY.line(line!, tolerance ?? "10") },
    doc: "a GeoJSON LineString or MultiLineString with planar edges halved until each lies within the tolerance (metres, 0.1 to 10000, 10 by default) of its geodesic; null for an invalid line or tolerance",
  }),
  scalar("geo_polygon_densify", {
    args: ["polygon: dynamic", "polygon: dynamic, tolerance: real", "polygon: dynamic, tolerance: real, preserve_crossing: const bool"],
    result: "dynamic",
    nulls: "may",
    checkConsts: (consts) => (consts[2] === true ? "geo_polygon_densify(…, preserve_crossing = true): edges kept across the antimeridian are not supported" : undefined),
    sql: { duckdb: ({ args: [polygon, tolerance] }) => `CAST(kql_geo_polygon_densify(CAST(${polygon} AS VARCHAR), ${tolerance ?? "10"}) AS JSON)`, clickhouse: ({ args: [polygon, tolerance] }) => CH_DENSIFY.polygon(polygon!, tolerance ?? "10") },
    doc: "a GeoJSON Polygon or MultiPolygon with planar edges halved until each lies within the tolerance (metres, 0.1 to 10000, 10 by default) of its geodesic; null for an invalid polygon or tolerance",
  }),
  scalar("geo_polygon_centroid", {
    args: "polygon: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_geo_polygon_centroid(CAST($0 AS VARCHAR)) AS JSON)", clickhouse: ({ args: [polygon] }) => chPolygonCentroid(polygon!) },
    doc: "the centroid of a GeoJSON Polygon or MultiPolygon as a GeoJSON point; null for an invalid polygon",
  }),
  scalar("geo_intersects_2lines", {
    args: "lineString1: dynamic, lineString2: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "kql_geo_intersects_2lines(CAST($0 AS VARCHAR), CAST($1 AS VARCHAR))", clickhouse: ({ args: [a, b] }) => CH_INTERSECTS.lines(a!, b!) },
    doc: "whether two GeoJSON LineStrings or MultiLineStrings meet; null when either is invalid",
  }),
  scalar("geo_intersects_line_with_polygon", {
    args: "lineString: dynamic, polygon: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "kql_geo_intersects_line_with_polygon(CAST($0 AS VARCHAR), CAST($1 AS VARCHAR))", clickhouse: ({ args: [a, b] }) => CH_INTERSECTS.lineWithPolygon(a!, b!) },
    doc: "whether a GeoJSON LineString or MultiLineString meets a Polygon or MultiPolygon (crosses, touches or lies in it); null when either is invalid",
  }),
  scalar("geo_intersects_2polygons", {
    args: "polygon1: dynamic, polygon2: dynamic",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "kql_geo_intersects_2polygons(CAST($0 AS VARCHAR), CAST($1 AS VARCHAR))", clickhouse: ({ args: [a, b] }) => CH_INTERSECTS.polygons(a!, b!) },
    doc: "whether two GeoJSON Polygons or MultiPolygons meet (their edges meet or one holds a vertex of the other); null when either is invalid",
  }),
  scalar("geo_h3cell_level", {
    args: "h3cell: string",
    result: "int",
    nulls: "may",
    sql: { duckdb: "CAST(kql_h3_level($0) AS INTEGER)", clickhouse: ({ args: [token] }) => `toInt32(${CH_H3.level(token!)})` },
    doc: "the resolution (0 to 15) of an H3 cell; null for an invalid token",
  }),
  scalar("geo_h3cell_parent", {
    args: "h3cell: string, resolution?: long",
    result: "string",
    nulls: "may",
    sql: { duckdb: ({ args: [token, level] }) => (level ? `kql_h3_parent_at(${token}, ${level})` : `kql_h3_parent(${token})`), clickhouse: ({ args: [token, level] }) => CH_H3.parent(token!, level) },
    doc: "the token of the H3 cell's parent at the resolution (one level up by default); empty for an invalid token or a resolution finer than the cell's",
  }),
  scalar("geo_h3cell_children", {
    args: "h3cell: string, resolution?: long",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [token, level] }) => `CAST(${level ? `kql_h3_children_at(${token}, ${level})` : `kql_h3_children(${token})`} AS JSON)`, clickhouse: ({ args: [token, level] }) => CH_H3.children(token!, level) },
    doc: "the tokens of the H3 cell's children at the resolution (one level down by default, at most 5 down); null for an invalid token or resolution",
  }),
  scalar("geo_point_to_s2cell", {
    args: "longitude: real, latitude: real, level?: long",
    result: "string",
    nulls: "may",
    sql: { duckdb: ({ args: [lon, lat, level] }) => `kql_s2_point_to_cell(${lon}, ${lat}, ${level ?? "11"})`, clickhouse: ({ args: [lon, lat, level] }) => CH_S2.pointToCell(lon!, lat!, level ?? "11") },
    doc: "the token of the S2 cell holding the point at the level (0 to 30, 11 by default); empty for invalid coordinates or level",
  }),
  scalar("geo_s2cell_to_central_point", {
    args: "s2cell: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_s2_cell_to_central_point($0) AS JSON)", clickhouse: ({ args: [token] }) => CH_S2.centralPoint(token!) },
    doc: "the centre of an S2 cell as a GeoJSON point; null for an invalid token",
  }),
  scalar("geo_s2cell_to_polygon", {
    args: "s2cell: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_s2_cell_to_polygon($0) AS JSON)", clickhouse: ({ args: [token] }) => CH_S2.polygon(token!) },
    doc: "an S2 cell as a GeoJSON polygon; null for an invalid token",
  }),
  scalar("geo_s2cell_neighbors", {
    args: "s2cell: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: "CAST(kql_s2_cell_neighbors($0) AS JSON)", clickhouse: ({ args: [token] }) => CH_S2.neighbors(token!) },
    doc: "the tokens of an S2 cell's eight neighbours of its level; null for an invalid token",
  }),
];

