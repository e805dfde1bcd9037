/**
 * Conformance: the geohash functions (functions/geohash.ts) on both engines — the pages' printed
 * outputs, then edges (accuracy 1 and 18, the antimeridian, the poles, invalid geohashes).
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("geohash functions", () => {
  conformance([
    { q: "print geohash = geo_point_to_geohash(-80.195829, 25.802215, 8)", rows: [["dhwfz15h"]] },
    { q: "datatable(location_id:string, longitude:real, latitude:real) ['A', double(-122.303404), 47.570482, 'B', double(-122.304745), 47.567052, 'C', double(-122.278156), 47.566936] | summarize count = count(), locations = make_list(location_id) by geohash = geo_point_to_geohash(longitude, latitude)", rows: [["c23n8", 2, ["A", "B"]], ["c23n9", 1, ["C"]]] },
    { q: "print a = geo_point_to_geohash(200, 1, 8), b = geo_point_to_geohash(1, 1, int(null)), c = geo_point_to_geohash(1, 1, 0), d = geo_point_to_geohash(1, 1, 19)", rows: [["", "", "", ""]] },
    { q: "print a = geo_point_to_geohash(180, 90, 1), b = geo_point_to_geohash(-180, -90, 2), c = geo_point_to_geohash(-80.195829, 25.802215, 18)", rows: [["z", "00", "dhwfz15hv9rzb22v2f"]] },
    // Next to the south pole: no neighbour below; the longitude wraps round.
    { q: "print neighbors = geo_geohash_neighbors('sunny')", rows: [[["sunnt", "sunpj", "sunnx", "sunpn", "sunnv", "sunpp", "sunnz", "sunnw"]]] },
    { q: "print invalid = isnull(geo_geohash_neighbors('a')), b = geo_geohash_neighbors('0'), c = geo_geohash_neighbors('b')", rows: [[true, ["r", "2", "p", "3", "1"], ["x", "9", "z", "c", "8"]]] },
    { q: "print point = geo_geohash_to_central_point('sunny') | extend coordinates = point.coordinates | extend longitude = coordinates[0], latitude = coordinates[1]", rows: [[{ type: "Point", coordinates: [42.47314453125, 23.70849609375] }, [42.47314453125, 23.70849609375], 42.47314453125, 23.70849609375]] },
    { q: "print a = geo_geohash_to_central_point('a'), b = geo_geohash_to_polygon('a'), c = geo_geohash_to_central_point('')", rows: [[null, null, null]] },
    { q: "print p = geo_geohash_to_polygon('dr5ru')", rows: [[{ type: "Polygon", coordinates: [[[-74.00390625, 40.7373046875], [-73.9599609375, 40.7373046875], [-73.9599609375, 40.78125], [-74.00390625, 40.78125], [-74.00390625, 40.7373046875]]] }]] },
  ]);
});
