/**
 * KQL's geohash functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one):
 * geo_point_to_geohash, geo_geohash_to_central_point, geo_geohash_to_polygon,
 * geo_geohash_neighbors. A geohash of L characters is 5·L bits alternating longitude (first) and
 * latitude: ceil(5L/2) bits of the longitude's cell index over [-180, 180], floor(5L/2) of the
 * latitude's over [-90, 90]. Both engines compute it with the same integer arithmetic in SQL
 * (ClickHouse's geohashEncode stops at 12 characters; ADX's accuracy goes to 18).
 */
import { scalar, type FunctionEntry } from "./entry";

type Engine = "duckdb" | "clickhouse";

const ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";

/** The engine's spelling of the few operations the arithmetic needs. */
const OPS = {
  duckdb: {
    shr: (x: string, n: string) => `((${x}) >> (${n}))`,
    idiv: (a: string, b: string) => `((${a}) // (${b}))`,
    pow2: (n: string) => `CAST(pow(2, ${n}) AS BIGINT)`,
    long: (x: string) => `CAST(${x} AS BIGINT)`,
    map: (n: string, v: string, body: string) => `list_transform(range(0, ${n}), lambda ${v}: ${body})`,
    sum: (list: string) => `coalesce(list_sum(${list}), 0)`,
    join: (list: string) => `array_to_string(${list}, '')`,
    char: (s: string, i: string) => `substr(${s}, CAST(${i} AS BIGINT), 1)`,
    pos: (c: string) => `strpos('${ALPHABET}', ${c})`,
    len: (s: string) => `length(${s})`,
    valid: (s: string) => `regexp_full_match(${s}, '[0-9b-hjkmnp-z]{1,18}')`,
    /** `body` over the named values, each computed once. */
    bind: (tag: string, values: Record<string, string>, body: (v: Record<string, string>) => string) =>
      `list_transform([{${Object.entries(values).map(([k, x]) => `'${k}': ${x}`).join(", ")}}], lambda kql_${tag}: ${body(Object.fromEntries(Object.keys(values).map((k) => [k, `kql_${tag}.${k}`])))})[1]`,
    num: (x: string) => `CAST(${x} AS VARCHAR)`,
  },
  clickhouse: {
    shr: (x: string, n: string) => `bitShiftRight(${x}, ${n})`,
    idiv: (a: string, b: string) => `intDiv(${a}, ${b})`,
    pow2: (n: string) => `toInt64(pow(2, ${n}))`,
    long: (x: string) => `toInt64(${x})`,
    map: (n: string, v: string, body: string) => `arrayMap(${v} -> ${body}, range(toUInt64(${n})))`,
    sum: (list: string) => `arraySum(${list})`,
    join: (list: string) => `arrayStringConcat(${list}, '')`,
    char: (s: string, i: string) => `substring(${s}, ${i}, 1)`,
    pos: (c: string) => `toInt64(position('${ALPHABET}', ${c}))`,
    len: (s: string) => `toInt64(length(${s}))`,
    valid: (s: string) => `match(${s}, '^[0-9b-hjkmnp-z]{1,18}$')`,
    bind: (tag: string, values: Record<string, string>, body: (v: Record<string, string>) => string) => {
      const names = Object.keys(values).map((k) => `kql_${tag}_${k}`);
      return `arrayMap((${names.join(", ")}) -> ${body(Object.fromEntries(Object.keys(values).map((k) => [k, `kql_${tag}_${k}`])))}, ${Object.values(values).map((x) => `[${x}]`).join(", ")})[1]`;
    },
    num: (x: string) => `toString(${x})`,
  },
};

/** A cell (longitude and latitude indexes, their bit counts) as a geohash of `length` characters. */
function encode(engine: Engine, lon: string, lat: string, lonBits: string, latBits: string, length: string, level: number): string {
  const o = OPS[engine];
  const c = `kql_c${level}`;
  const bit = (k: number) => {
    const g = `(5 * ${c} + ${k})`;
    return `CASE WHEN ${g} % 2 = 0 THEN ${o.shr(lon, `${lonBits} - 1 - ${o.idiv(g, "2")}`)} % 2 ELSE ${o.shr(lat, `${latBits} - 1 - ${o.idiv(g, "2")}`)} % 2 END`;
  };
  const value = [0, 1, 2, 3, 4].map((k) => `${bit(k)} * ${16 >> k}`).join(" + ");
  return o.join(o.map(length, c, o.char(`'${ALPHABET}'`, `${value} + 1`)));
}

/** The cell a valid geohash names: `body` over its indexes and bit counts; null for an invalid geohash. */
function decode(engine: Engine, text: string, body: (cell: Record<string, string>) => string): string {
  const o = OPS[engine];
  // The geohash is computed once (it may be a long expression: geo_point_to_geohash's).
  return o.bind("ghs", { h: engine === "duckdb" ? text : ifNull(text) }, ({ h }) => decoded(engine, h!, body));
}

function decoded(engine: Engine, geohash: string, body: (cell: Record<string, string>) => string): string {
  const o = OPS[engine];
  const length = o.len(geohash);
  const bits = (even: boolean, count: string) =>
    o.sum(
      o.map(
        `5 * ${length}`,
        "kql_g",
        `CASE WHEN kql_g % 2 = ${even ? 0 : 1} THEN (${o.shr(`${o.pos(o.char(geohash, `${o.idiv("kql_g", "5")} + 1`))} - 1`, `4 - kql_g % 5`)} % 2) * ${o.pow2(`${count} - 1 - ${o.idiv("kql_g", "2")}`)} ELSE 0 END`,
      ),
    );
  const lonBits = o.idiv(`5 * ${length} + 1`, "2");
  const latBits = o.idiv(`5 * ${length}`, "2");
  const cell = o.bind("ghb", { lb: lonBits, tb: latBits, n: length }, (v) => o.bind("ghc", { lo: bits(true, v.lb!), la: bits(false, v.tb!), lb: v.lb!, tb: v.tb!, n: v.n! }, body));
  return engine === "duckdb" ? `CASE WHEN ${o.valid(geohash)} THEN ${cell} END` : `if(${o.valid(geohash)}, ${cell}, NULL)`;
}

const ifNull = (s: string) => `ifNull(${s}, '')`;

function pointToGeohash(engine: Engine, [lon, lat, accuracy]: string[]): string {
  const o = OPS[engine];
  const p = accuracy ?? "5";
  const length = `least(greatest(${p}, 1), 18)`;
  const cell = o.bind("ghe", { lb: o.idiv(`5 * ${length} + 1`, "2"), tb: o.idiv(`5 * ${length}`, "2"), n: length }, (v) =>
    encode(engine, `least(${o.long(`floor((${lon} + 180) / 360 * ${o.pow2(v.lb!)})`)}, ${o.pow2(v.lb!)} - 1)`, `least(${o.long(`floor((${lat} + 90) / 180 * ${o.pow2(v.tb!)})`)}, ${o.pow2(v.tb!)} - 1)`, v.lb!, v.tb!, v.n!, 0),
  );
  const valid = `${p} BETWEEN 1 AND 18 AND ${lon} BETWEEN -180 AND 180 AND ${lat} BETWEEN -90 AND 90`;
  return engine === "duckdb" ? `CASE WHEN ${valid} THEN ${cell} END` : `if(${valid}, ${cell}, NULL)`;
}

/** The corners of a cell: west, south, east, north. */
function box(engine: Engine, v: Record<string, string>) {
  const o = OPS[engine];
  const w = `(360.0 / ${o.pow2(v.lb!)})`;
  const h = `(180.0 / ${o.pow2(v.tb!)})`;
  return { west: `(-180 + ${v.lo} * ${w})`, east: `(-180 + (${v.lo} + 1) * ${w})`, south: `(-90 + ${v.la} * ${h})`, north: `(-90 + (${v.la} + 1) * ${h})`, w, h };
}

const pair = (engine: Engine, x: string, y: string) => (engine === "duckdb" ? `json_array(${x}, ${y})` : `concat('[', toString(${x}), ',', toString(${y}), ']')`);

function centralPoint(engine: Engine, geohash: string): string {
  return decode(engine, geohash, (v) => {
    const b = box(engine, v);
    const lon = `(-180 + (${v.lo} + 0.5) * ${b.w})`;
    const lat = `(-90 + (${v.la} + 0.5) * ${b.h})`;
    return engine === "duckdb" ? `json_object('type', 'Point', 'coordinates', ${pair(engine, lon, lat)})` : `concat('{"type":"Point","coordinates":', ${pair(engine, lon, lat)}, '}')`;
  });
}

function polygon(engine: Engine, geohash: string): string {
  return decode(engine, geohash, (v) => {
    const b = box(engine, v);
    const ring = [pair(engine, b.west, b.south), pair(engine, b.east, b.south), pair(engine, b.east, b.north), pair(engine, b.west, b.north), pair(engine, b.west, b.south)];
    return engine === "duckdb" ? `json_object('type', 'Polygon', 'coordinates', json_array(json_array(${ring.join(", ")})))` : `concat('{"type":"Polygon","coordinates":[[', ${ring.join(", ',', ")}, ']]}')`;
  });
}

/** ADX's order of the eight neighbours (longitude, latitude steps), as the page prints them. */
const NEIGHBOURS = [[-1, -1], [-1, 1], [1, -1], [0, 1], [-1, 0], [1, 1], [1, 0], [0, -1]] as const;

function neighbors(engine: Engine, geohash: string): string {
  return decode(engine, geohash, (v) => {
    const o = OPS[engine];
    const cells = NEIGHBOURS.map(([dx, dy], i) => {
      const lon = `((${v.lo} + ${dx} + ${o.pow2(v.lb!)}) % ${o.pow2(v.lb!)})`;
      const lat = `(${v.la} + ${dy})`;
      const text = encode(engine, lon, lat, v.lb!, v.tb!, v.n!, i + 1);
      // No neighbour beyond a pole.
      return engine === "duckdb" ? `CASE WHEN ${lat} >= 0 AND ${lat} < ${o.pow2(v.tb!)} THEN ${text} END` : `if(${lat} >= 0 AND ${lat} < ${o.pow2(v.tb!)}, ${text}, '')`;
    });
    return engine === "duckdb" ? `to_json(list_filter([${cells.join(", ")}], lambda kql_x: kql_x IS NOT NULL))` : `concat('[', arrayStringConcat(arrayMap(kql_x -> toJSONString(kql_x), arrayFilter(kql_x -> kql_x != '', [${cells.join(", ")}])), ','), ']')`;
  });
}

export const GEOHASH: readonly FunctionEntry[] = [
  scalar("geo_point_to_geohash", {
    args: "longitude: real, latitude: real, accuracy?: long",
    result: "string",
    nulls: "may",
    sql: { duckdb: ({ args }) => pointToGeohash("duckdb", args), clickhouse: ({ args }) => pointToGeohash("clickhouse", args) },
    doc: "the geohash of the point's cell at the accuracy (1 to 18 characters, 5 by default); empty for a point or accuracy out of range",
  }),
  scalar("geo_geohash_to_central_point", {
    args: "geohash: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [g] }) => centralPoint("duckdb", g!), clickhouse: ({ args: [g] }) => centralPoint("clickhouse", g!) },
    doc: "the centre of the geohash's cell as a GeoJSON point; null for an invalid geohash",
  }),
  scalar("geo_geohash_to_polygon", {
    args: "geohash: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [g] }) => polygon("duckdb", g!), clickhouse: ({ args: [g] }) => polygon("clickhouse", g!) },
    doc: "the geohash's cell as a GeoJSON polygon; null for an invalid geohash",
  }),
  scalar("geo_geohash_neighbors", {
    args: "geohash: string",
    result: "dynamic",
    nulls: "may",
    sql: { duckdb: ({ args: [g] }) => neighbors("duckdb", g!), clickhouse: ({ args: [g] }) => neighbors("clickhouse", g!) },
    doc: "the geohashes of the cell's eight neighbours (fewer next to a pole); null for an invalid geohash",
  }),
];
