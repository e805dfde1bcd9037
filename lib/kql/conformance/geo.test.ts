/**
 * Conformance: the geospatial functions of points, lines and polygons on the sphere
 * (functions/geo.ts, functions/sphere.ts) on both engines — the pages' printed outputs (Microsoft's
 * documentation), then edges: invalid coordinates, degenerate lines and rings, nulls, holes.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const LINE = '{"type":"LineString","coordinates":[[-73.95796, 40.80042], [-73.97317, 40.764486]]}';
const LINE5 = '{"type":"LineString","coordinates":[[-73.95807266235352,40.800426144169315],[-73.94966125488281,40.79691751000055],[-73.97317886352539,40.764486356930334],[-73.98210525512695,40.76786669510221],[-73.96004676818848,40.7980870753293]]}';
const VEGAS_LINE = '{ "type":"LineString","coordinates":[[-115.115385,36.229195],[-115.136995,36.200366],[-115.140252,36.192470],[-115.143558,36.188523],[-115.144076,36.181954],[-115.154662,36.174483],[-115.166431,36.176388],[-115.183289,36.175007],[-115.192612,36.176736],[-115.202485,36.173439],[-115.225355,36.174365]]}';
/** Manhattan with Central Park as a hole (geo_point_in_polygon's page). */
const MANHATTAN = '{"type":"Polygon","coordinates":[[[-73.92597198486328,40.87821814104651],[-73.94691467285156,40.85069618625578],[-73.94691467285156,40.841865966890786],[-74.01008605957031,40.7519385984599],[-74.01866912841797,40.704586878965245],[-74.01214599609375,40.699901911003046],[-73.99772644042969,40.70875101828792],[-73.97747039794922,40.71083299030839],[-73.97026062011719,40.7290474687069],[-73.97506713867186,40.734510840309376],[-73.970947265625,40.74543623770158],[-73.94210815429688,40.77586181063573],[-73.9434814453125,40.78080140115127],[-73.92974853515625,40.79691751000055],[-73.93077850341797,40.804454347291006],[-73.93489837646484,40.80965166748853],[-73.93524169921875,40.837190668541105],[-73.92288208007812,40.85770758108904],[-73.9101791381836,40.871728144624974],[-73.92597198486328,40.87821814104651]],[[-73.95824432373047,40.80071852197889],[-73.98206233978271,40.76815921628347],[-73.97309303283691,40.76422632379533],[-73.94914627075195,40.796949998204596],[-73.95824432373047,40.80071852197889]]]}';
const L1 = '{"type":"LineString","coordinates":[[-73.978929,40.785155],[-73.980903,40.782621]]}';
const L2 = '{"type":"LineString","coordinates":[[-73.985195,40.788275],[-73.974552,40.779761]]}';
const CENTRAL_PARK = '{"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807266235352,40.80068603561921],[-73.98201942443848,40.76825672305777],[-73.97317886352539,40.76455136505513],[-73.9495,40.7969]]]}';

describe("geospatial functions: points", () => {
  conformance([
    { q: "print distance_in_meters = geo_distance_2points(-122.407628, 47.578557, -118.275287, 34.019056)", rows: [[1546754.35197381]] },
    { q: "print a = geo_distance_2points(300, 1, 1, 1), b = geo_distance_2points(1, 91, 1, 1), c = geo_distance_2points(1, 1, 1, 1), d = geo_distance_2points(real(null), 1, 1, 1)", rows: [[null, null, 0, null]] },
    // Antipodes: half the circumference; use_spheroid false is the sphere.
    { q: "print d = geo_distance_2points(0, 0, 180, 0, false)", rows: [[Math.PI * 6_371_010]] },
    {
      q: "datatable(longitude:real, latitude:real, place:string) [real(-122.317404), 47.609119, 'Seattle', real(-123.497688), 47.458098, 'Olympic National Forest', real(-122.201741), 47.677084, 'Kirkland', real(-122.443663), 47.247092, 'Tacoma', real(-122.121975), 47.671345, 'Redmond'] | where geo_point_in_circle(longitude, latitude, -122.317404, 47.609119, 18000) | project place",
      rows: [["Seattle"], ["Kirkland"], ["Redmond"]],
    },
    { q: "print a = geo_point_in_circle(-122.143564, 47.535677, -122.100896, 47.527351, 3500), b = geo_point_in_circle(-122.137575, 47.630683, -122.100896, 47.527351, 3500)", rows: [[true, false]] },
    { q: "print a = geo_point_in_circle(200, 1, 1, 1, 1), b = geo_point_in_circle(1, 1, 1, 1, -1), c = geo_point_in_circle(1, 1, 1, 1, 0), d = geo_point_in_circle(1, 1, 1, 1, 1)", rows: [[null, null, null, true]] },
    { q: "print azimuth_in_radians = geo_azimuth(5, 10, 10, -40), degrees = degrees(geo_azimuth(5, 10, 10, -40))", rows: [[3.05459939796449, 175.015653606568]] },
    // Due east, due west; the same point, antipodes and an invalid point give null.
    { q: "print east = geo_azimuth(0, 0, 1, 0), west = geo_azimuth(0, 0, -1, 0), same = geo_azimuth(5, 10, 5, 10), antipodes = geo_azimuth(0, 0, 180, 0), pole = geo_azimuth(0, 90, 50, 90), invalid = geo_azimuth(0, 0, 0, 100)", rows: [[Math.PI / 2, (3 * Math.PI) / 2, null, null, null, null]] },
    { q: "print angle_in_radians = geo_angle(0, 10, 0, 5, 3, -10), degrees = degrees(geo_angle(0, 10, 0, 5, 3, -10))", rows: [[2.94493843406882, 168.732543198009]] },
    // Turning right instead of left: the clockwise angle is the rest of the circle.
    { q: "print right = geo_angle(0, 10, 0, 5, -3, -10), is_null = isnull(geo_angle(0, 10, 0, 10, 3, -10)), other_null = isnull(geo_angle(0, 10, 0, 5, 0, 5))", rows: [[2 * Math.PI - 2.944938434068817, true, true]] },
  ]);
});

describe("geospatial functions: lines", () => {
  conformance([
    {
      q: 'print length = geo_line_length(dynamic({"type":"LineString","coordinates":[[-73.95807266235352,40.800426144169315],[-73.94966125488281,40.79691751000055],[-73.97317886352539,40.764486356930334]]}))',
      rows: [[4922.48016992081]],
    },
    {
      q: 'print length = geo_line_length(dynamic({"type":"MultiLineString","coordinates":[[[-73.95798683166502,40.800556090021466],[-73.98193359375,40.76819171855746]],[[-73.94940376281738,40.79691751000055],[-73.97317886352539,40.76435634049001]]]}))',
      rows: [[8262.24339753741]],
    },
    // One position, a coordinate out of range, not a line, null: null.
    {
      q: 'print a = isnull(geo_line_length(dynamic({"type":"LineString","coordinates":[[1, 1]]}))), b = isnull(geo_line_length(dynamic({"type":"LineString","coordinates":[[1, 1], [1, 95]]}))), c = isnull(geo_line_length(dynamic({"type":"Point","coordinates":[1, 1]}))), d = isnull(geo_line_length(dynamic(null))), e = isnull(geo_line_centroid(parse_json("[1, 2]")))',
      rows: [[true, true, true, true, true]],
    },
    { q: `print centroid = geo_line_centroid(dynamic(${LINE}))`, rows: [[{ type: "Point", coordinates: [-73.96556705723094, 40.782453249627416] }]] },
    { q: `print centroid = geo_line_centroid(dynamic(${LINE5})) | project lng = centroid.coordinates[0]`, rows: [[-73.9660675626837]] },
    { q: `print point = geo_line_interpolate_point(dynamic(${LINE}), 0.25)`, rows: [[{ type: "Point", coordinates: [-73.96176404321828, 40.79143668725723] }]] },
    { q: `print point = geo_line_interpolate_point(dynamic(${LINE5}), 0.9) | project lng = point.coordinates[0]`, rows: [[-73.96556545832799]] },
    // The ends; a fraction outside [0, 1] or null, a MultiLineString: null.
    {
      q: `print start = geo_line_interpolate_point(dynamic(${LINE}), 0), stop = geo_line_interpolate_point(dynamic(${LINE}), 1), over = isnull(geo_line_interpolate_point(dynamic(${LINE}), 1.5)), none = isnull(geo_line_interpolate_point(dynamic(${LINE}), real(null))), multi = isnull(geo_line_interpolate_point(dynamic({"type":"MultiLineString","coordinates":[[[1,1],[2,2]]]}), 0.5))`,
      rows: [[{ type: "Point", coordinates: [-73.95796, 40.80042] }, { type: "Point", coordinates: [-73.97317, 40.764486] }, true, true, true]],
    },
    { q: `print fraction = geo_line_locate_point(dynamic(${LINE}), -73.965, 40.792)`, rows: [[0.2556013510030755]] },
    // Beyond either end the closest point is the end; the point at a fraction locates back to it.
    {
      q: `print before = geo_line_locate_point(dynamic(${LINE}), -73.9, 40.9), after = geo_line_locate_point(dynamic(${LINE}), -74.0, 40.7), back = geo_line_locate_point(dynamic(${LINE5}), todouble(geo_line_interpolate_point(dynamic(${LINE5}), 0.3).coordinates[0]), todouble(geo_line_interpolate_point(dynamic(${LINE5}), 0.3).coordinates[1])), bad = isnull(geo_line_locate_point(dynamic({"type":"LineString","coordinates":[[1, 1]]}), 1, 1)), bad_point = isnull(geo_line_locate_point(dynamic(${LINE}), 1, 100))`,
      rows: [[0, 1, 0.3, true, true]],
    },
  ]);
});

describe("geospatial functions: polygons", () => {
  conformance([
    { q: `print area = geo_polygon_area(dynamic(${CENTRAL_PARK}))`, rows: [[3475207.28346606]] },
    { q: `print perimeter = geo_polygon_perimeter(dynamic(${CENTRAL_PARK}))`, rows: [[9930.30149604938]] },
    { q: `print centroid = geo_polygon_centroid(dynamic(${CENTRAL_PARK}))`, rows: [[{ type: "Point", coordinates: [-73.96573568990762, 40.78255053805781] }]] },
    // Clockwise, the same centroid; a hole pulls it away; two distinct vertices: null.
    {
      q: 'print cw = geo_polygon_centroid(dynamic({"type":"Polygon","coordinates":[[[0,0],[0,2],[2,2],[2,0],[0,0]]]})).coordinates[0], holed = todouble(geo_polygon_centroid(dynamic({"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]],[[0.1,0.1],[0.1,1.9],[0.9,1.9],[0.9,0.1],[0.1,0.1]]]})).coordinates[0]) > 1.1, bad = isnull(geo_polygon_centroid(dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]})))',
      rows: [[1, true, true]],
    },
    // The ring's order does not matter (the smaller side); a hole is taken off; a MultiPolygon of disjoint polygons sums them.
    {
      q: 'print cw = geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]})) / geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), holed = geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]],[[0.5,0.5],[0.5,1.5],[1.5,1.5],[1.5,0.5],[0.5,0.5]]]})) < geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]})), two = geo_polygon_area(dynamic({"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],[[[10,0],[11,0],[11,1],[10,1],[10,0]]]]})) / geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}))',
      rows: [[1, true, 2]],
    },
    // A spherical triangle with three right angles: an eighth of the sphere; its perimeter three quarter circles.
    { q: 'print area = geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[90,0],[0,90],[0,0]]]})), perimeter = geo_polygon_perimeter(dynamic({"type":"Polygon","coordinates":[[[0,0],[90,0],[0,90],[0,0]]]}))', rows: [[(Math.PI / 2) * 6_371_010 ** 2, 1.5 * Math.PI * 6_371_010]] },
    // Two distinct vertices, an open ring, too few positions, a coordinate out of range: null.
    {
      q: 'print a = isnull(geo_polygon_area(dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]}))), b = isnull(geo_polygon_perimeter(dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]}))), c = isnull(geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}))), d = isnull(geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}))), e = isnull(geo_polygon_area(dynamic({"type":"Polygon","coordinates":[[[0,0],[181,0],[1,1],[0,0]]]}))), f = isnull(geo_polygon_area(dynamic(null)))',
      rows: [[true, true, true, true, true, true]],
    },
  ]);
});

describe("geospatial functions: a point and a line or polygon", () => {
  conformance([
    { q: `print distance_in_meters = geo_distance_point_to_line(-115.199625, 36.210419, dynamic(${VEGAS_LINE}))`, rows: [[3797.88887253334]] },
    { q: `print point_on_line = geo_closest_point_on_line(-115.199625, 36.210419, dynamic(${VEGAS_LINE}))`, rows: [[{ type: "Point", coordinates: [-115.192612, 36.176736] }]] },
    // On the line: 0 and the point itself; a MultiLineString: its nearest line; invalid: null.
    {
      q: 'print on = geo_distance_point_to_line(1.5, 0, dynamic({"type":"LineString","coordinates":[[1,0],[2,0]]})) < 1e-6, multi = geo_distance_point_to_line(0, 0, dynamic({"type":"MultiLineString","coordinates":[[[10,10],[11,11]],[[0,1],[1,1]]]})) / geo_distance_2points(0, 0, 0, 1), a = isnull(geo_distance_point_to_line(1, 1, dynamic({"type":"LineString"}))), b = isnull(geo_distance_point_to_line(300, 3, dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}))), c = isnull(geo_closest_point_on_line(300, 3, dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]})))',
      rows: [[true, 1, true, true, true]],
    },
    {
      q: `datatable(longitude:real, latitude:real, description:string) [real(-73.985654), 40.748487, 'Empire State Building', real(-73.963249), 40.779525, 'The Metropolitan Museum of Art', real(-73.874367), 40.777356, 'LaGuardia Airport'] | where geo_point_in_polygon(longitude, latitude, dynamic(${MANHATTAN}))`,
      rows: [[-73.985654, 40.748487, "Empire State Building"]],
    },
    // The ring's order does not matter; a MultiPolygon holds what any of its polygons holds; a point far away (at the antipode) is outside.
    {
      q: 'print ccw = geo_point_in_polygon(0.5, 0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), cw = geo_point_in_polygon(0.5, 0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]})), antipode = geo_point_in_polygon(-179.5, -0.5, dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), multi = geo_point_in_polygon(10.5, 0.5, dynamic({"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],[[[10,0],[11,0],[11,1],[10,1],[10,0]]]]}))',
      rows: [[true, true, false, true]],
    },
    { q: 'print a = geo_point_in_polygon(200, 1, dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,1],[0,0]]]})), b = geo_point_in_polygon(1, 1, dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]}))', rows: [[null, null]] },
    { q: `print d = geo_distance_point_to_polygon(-73.9839, 40.7705, dynamic(${CENTRAL_PARK})), inside = geo_distance_point_to_polygon(-73.965, 40.785, dynamic(${CENTRAL_PARK}))`, rows: [[259.940756070596, 0]] },
    { q: `print p = geo_closest_point_on_polygon(-73.9839, 40.7705, dynamic(${CENTRAL_PARK})), inside = geo_closest_point_on_polygon(-73.965, 40.785, dynamic(${CENTRAL_PARK}))`, rows: [[{ type: "Point", coordinates: [-73.98120558015393, 40.76935945284321] }, { type: "Point", coordinates: [-73.965, 40.785] }]] },
    // In the hole: the distance to the hole's edge.
    { q: `print in_hole = geo_distance_point_to_polygon(-73.965, 40.785, dynamic(${MANHATTAN})) > 0, in_manhattan = geo_distance_point_to_polygon(-73.985654, 40.748487, dynamic(${MANHATTAN}))`, rows: [[true, 0]] },
    { q: 'print a = isnull(geo_distance_point_to_polygon(500, 1, dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,1],[0,0]]]}))), b = isnull(geo_closest_point_on_polygon(1, 1, dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]})))', rows: [[true, true]] },
  ]);
});

describe("geospatial functions: S2 cells", () => {
  conformance([
    { q: "print s2cell = geo_point_to_s2cell(-80.195829, 25.802215, 8)", rows: [["88d9b"]] },
    {
      q: 'datatable(location_id:string, longitude:real, latitude:real) ["A", 10.1234, 53, "B", 10.3579, 53, "C", 10.6842, 53] | summarize count = count(), locations = make_list(location_id) by s2cell = geo_point_to_s2cell(longitude, latitude, 8)',
      rows: [["47b1d", 2, ["A", "B"]], ["47ae3", 1, ["C"]]],
    },
    // Level 11 by default; levels 0 and 30; invalid coordinates, level or a null level: empty.
    { q: "print d = geo_point_to_s2cell(-80.195829, 25.802215), l0 = geo_point_to_s2cell(-80.195829, 25.802215, 0), a = geo_point_to_s2cell(300, 1, 8), b = geo_point_to_s2cell(1, 1, 35), c = geo_point_to_s2cell(1, 1, int(null))", rows: [["88d9b6c", "9", "", "", ""]] },
    { q: "print leaf = geo_point_to_s2cell(-80.195829, 25.802215, 30)", rows: [["88d9b6ace2101005"]] },
    {
      q: "print point = geo_s2cell_to_central_point('1234567') | extend coordinates = point.coordinates | extend longitude = coordinates[0], latitude = coordinates[1]",
      rows: [[{ type: "Point", coordinates: [9.86830731850408, 27.468392925827605] }, [9.86830731850408, 27.468392925827605], 9.86830731850408, 27.4683929258276]],
    },
    // A point's cell holds it: its centre's cell at the same level is the cell again.
    { q: "print c = geo_s2cell_to_central_point(geo_point_to_s2cell(-73.956683, 40.807907, 10)) | project back = geo_point_to_s2cell(todouble(c.coordinates[0]), todouble(c.coordinates[1]), 10)", rows: [["89c2f7"]] },
    {
      q: "print s2cellPolygon = geo_s2cell_to_polygon('89c259')",
      rows: [[{ type: "Polygon", coordinates: [[[-74.03001224983848, 40.8012684339439], [-74.03001224983848, 40.7222262918358], [-73.93598211433742, 40.708880489804564], [-73.93598211433742, 40.78791713450684], [-74.03001224983848, 40.8012684339439]]] }]],
    },
    { q: "print neighbors = geo_s2cell_neighbors('89c259')", rows: [[["89c25d", "89c2f9", "89c251", "89c257", "89c25f", "89c25b", "89c2f7", "89c2f5"]]] },
    // Upper case is the same cell; a cell at a face's edge has neighbours on the next face.
    { q: "print upper = geo_s2cell_neighbors('89C259')", rows: [[["89c25d", "89c2f9", "89c251", "89c257", "89c25f", "89c25b", "89c2f7", "89c2f5"]]] },
    { q: "print cell = geo_point_to_s2cell(45, 0.01, 5) | extend neighbors = geo_s2cell_neighbors(cell)", rows: [["17fc", ["3d5c", "181c", "22ac", "1804", "17e4", "3d54", "17f4", "17ec"]]] },
    // Invalid tokens: not hex, an odd level, face 6 or 7, empty.
    { q: "print a = isnull(geo_s2cell_neighbors('a')), b = isnull(geo_s2cell_to_central_point('a')), c = isnull(geo_s2cell_to_polygon('a')), d = isnull(geo_s2cell_to_polygon('zz')), e = isnull(geo_s2cell_to_polygon('d')), f = isnull(geo_s2cell_to_polygon(''))", rows: [[true, true, true, true, true, true]] },
  ]);
});

describe("geospatial functions: well-known text", () => {
  conformance([
    { q: 'print point = geo_from_wkt("POINT (1 2)"), line = geo_from_wkt("LINESTRING (1 2, 3 4)"), polygon = geo_from_wkt("POLYGON ((0 0, 2 0, 2 2, 0 0))")', rows: [[{ type: "Point", coordinates: [1, 2] }, { type: "LineString", coordinates: [[1, 2], [3, 4]] }, { type: "Polygon", coordinates: [[[0, 0], [2, 0], [2, 2], [0, 0]]] }]] },
    {
      q: 'print a = geo_from_wkt("MULTIPOINT (1 1, 2 2, 3 3)"), b = geo_from_wkt("MULTIPOINT ((1 1), (2 2))"), c = geo_from_wkt("MULTILINESTRING ((1 1, 2 2, 3 3), (4 4, 5 5))"), d = geo_from_wkt("MULTIPOLYGON (((0 0, 2 0, 2 2, 0 0)),((10 10, 12 10, 12 12, 10 10)))")',
      rows: [[{ type: "MultiPoint", coordinates: [[1, 1], [2, 2], [3, 3]] }, { type: "MultiPoint", coordinates: [[1, 1], [2, 2]] }, { type: "MultiLineString", coordinates: [[[1, 1], [2, 2], [3, 3]], [[4, 4], [5, 5]]] }, { type: "MultiPolygon", coordinates: [[[[0, 0], [2, 0], [2, 2], [0, 0]]], [[[10, 10], [12, 10], [12, 12], [10, 10]]]] }]],
    },
    {
      q: 'print geometry_collection = geo_from_wkt("GEOMETRYCOLLECTION (POINT (1 1),LINESTRING (2 2, 3 3, 4 4),POLYGON ((10 10, 12 10, 12 12, 10 10)))")',
      rows: [[{ type: "GeometryCollection", geometries: [{ type: "Point", coordinates: [1, 1] }, { type: "LineString", coordinates: [[2, 2], [3, 3], [4, 4]] }, { type: "Polygon", coordinates: [[[10, 10], [12, 10], [12, 12], [10, 10]]] }] }]],
    },
    // Keywords in any case, signed and exponent numbers; a keyword alone, three coordinates, an unknown keyword, null: null.
    { q: 'print p = geo_from_wkt("point(-1.5   2e3)"), a = isnull(geo_from_wkt("LINESTRING")), b = isnull(geo_from_wkt("POINT (1 2 3)")), c = isnull(geo_from_wkt("CIRCLE (1 2)")), d = isnull(geo_from_wkt(""))', rows: [[{ type: "Point", coordinates: [-1.5, 2000] }, true, true, true, true]] },
  ]);
});

describe("geospatial functions: densify", () => {
  conformance([
    {
      q: 'print densified_line = tostring(geo_line_densify(dynamic({"type":"LineString","coordinates":[[50, 50], [51, 51]]})))',
      rows: [['{"type":"LineString","coordinates":[[50,50],[50.125,50.125],[50.25,50.25],[50.375,50.375],[50.5,50.5],[50.625,50.625],[50.75,50.75],[50.875,50.875],[51,51]]}']],
    },
    {
      q: 'print densified_polygon = tostring(geo_polygon_densify(dynamic({"type":"Polygon","coordinates":[[[10,10],[11,10],[11,11],[10,11],[10,10]]]})))',
      rows: [['{"type":"Polygon","coordinates":[[[10,10],[10.25,10],[10.5,10],[10.75,10],[11,10],[11,11],[10.75,11],[10.5,11],[10.25,11],[10,11],[10,10]]]}']],
    },
    {
      q: 'print densified_polygon = tostring(geo_polygon_densify(dynamic({"type":"Polygon","coordinates":[[[-73.958244,40.800719],[-73.949146,40.79695],[-73.973093,40.764226],[-73.982062,40.768159],[-73.958244,40.800719]]]})))',
      rows: [['{"type":"Polygon","coordinates":[[[-73.958244,40.800719],[-73.949146,40.79695],[-73.973093,40.764226],[-73.982062,40.768159],[-73.958244,40.800719]]]}']],
    },
    // A looser tolerance halves fewer times; a MultiLineString densifies each line; a meridian is already geodesic.
    {
      q: 'print loose = array_length(geo_line_densify(dynamic({"type":"LineString","coordinates":[[50, 50], [51, 51]]}), 100).coordinates), multi = array_length(geo_line_densify(dynamic({"type":"MultiLineString","coordinates":[[[50, 50], [51, 51]], [[10, 10], [11, 10]]]})).coordinates[1]), meridian = array_length(geo_line_densify(dynamic({"type":"LineString","coordinates":[[10, 10], [10, 30]]})).coordinates)',
      rows: [[3, 5, 2]],
    },
    {
      q: 'print a = isnull(geo_line_densify(dynamic({"type":"LineString","coordinates":[[300,1],[1,1]]}))), b = isnull(geo_line_densify(dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}), 0)), c = isnull(geo_polygon_densify(dynamic({"type":"Polygon","coordinates":[[[10,900],[11,10],[11,11],[10,11],[10,10]]]}))), d = isnull(geo_polygon_densify(dynamic({"type":"Polygon","coordinates":[[[10,10],[11,10],[11,11],[10,11],[10,10]]]}), 0))',
      rows: [[true, true, true, true]],
    },
  ]);
});

describe("geospatial functions: intersects", () => {
  conformance([
    { q: `print intersects = geo_intersects_2lines(dynamic(${L1}), dynamic(${L2}))`, rows: [[true]] },
    // Apart, sharing an end, the same line, a MultiLineString one of whose lines crosses; one position: null.
    {
      q: `print apart = geo_intersects_2lines(dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}), dynamic({"type":"LineString","coordinates":[[3,3],[4,4]]})), touching = geo_intersects_2lines(dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}), dynamic({"type":"LineString","coordinates":[[2,2],[4,4]]})), same = geo_intersects_2lines(dynamic(${L1}), dynamic(${L1})), multi = geo_intersects_2lines(dynamic({"type":"MultiLineString","coordinates":[[[0,0],[0,1]],[[-73.985195,40.788275],[-73.974552,40.779761]]]}), dynamic(${L1})), bad = isnull(geo_intersects_2lines(dynamic(${L1}), dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275]]})))`,
      rows: [[false, true, true, true, true]],
    },
    {
      q: `print intersects = geo_intersects_line_with_polygon(dynamic(${L2}), dynamic({"type":"Polygon","coordinates":[[[-73.9712905883789,40.78580561168767],[-73.98004531860352,40.775276834803655],[-73.97000312805176,40.77852663535664],[-73.9712905883789,40.78580561168767]]]}))`,
      rows: [[true]],
    },
    // Inside without touching the edges; outside; a line given where a polygon is wanted: null.
    {
      q: 'print inside = geo_intersects_line_with_polygon(dynamic({"type":"LineString","coordinates":[[0.2,0.2],[0.3,0.3]]}), dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), outside = geo_intersects_line_with_polygon(dynamic({"type":"LineString","coordinates":[[2,2],[3,3]]}), dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})), bad = isnull(geo_intersects_line_with_polygon(dynamic({"type":"LineString","coordinates":[[2,2],[3,3]]}), dynamic({"type":"LineString","coordinates":[[2,2],[3,3]]})))',
      rows: [[true, false, true]],
    },
    {
      q: 'print geo_intersects_2polygons(dynamic({"type":"Polygon","coordinates":[[[-73.9630937576294,40.77498840732385],[-73.963565826416,40.774383111780914],[-73.96205306053162,40.773745311181585],[-73.96160781383514,40.7743912365898],[-73.9630937576294,40.77498840732385]]]}), dynamic({"type":"Polygon","coordinates":[[[-73.96213352680206,40.775045280447145],[-73.9631313085556,40.774578106920345],[-73.96207988262177,40.77416780398293],[-73.96213352680206,40.775045280447145]]]}))',
      rows: [[true]],
    },
    // Apart; one inside the other; an invalid polygon: null.
    {
      q: 'print apart = geo_intersects_2polygons(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}), dynamic({"type":"Polygon","coordinates":[[[5,5],[6,5],[6,6],[5,6],[5,5]]]})), within = geo_intersects_2polygons(dynamic({"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}), dynamic({"type":"Polygon","coordinates":[[[5,5],[6,5],[6,6],[5,6],[5,5]]]})), bad = isnull(geo_intersects_2polygons(dynamic({"type":"Polygon"}), dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]})))',
      rows: [[false, true, true]],
    },
  ]);
});

describe("geospatial functions: H3 cells' hierarchy", () => {
  conformance([
    { q: "print cell_res = geo_h3cell_level('862a1072fffffff'), upper = geo_h3cell_level('862A1072FFFFFFF'), invalid_res = isnull(geo_h3cell_level('abc'))", rows: [[6, 6, true]] },
    { q: "print a = geo_h3cell_parent('862a1072fffffff'), b = geo_h3cell_parent('862a1072fffffff', 1), same = geo_h3cell_parent('862a1072fffffff', 6)", rows: [["852a1073fffffff", "812a3ffffffffff", "862a1072fffffff"]] },
    { q: "print a = isempty(geo_h3cell_parent('123')), b = isempty(geo_h3cell_parent('862a1072fffffff', 100)), c = isempty(geo_h3cell_parent('862a1072fffffff', 15)), d = isempty(geo_h3cell_parent('8009fffffffffff'))", rows: [[true, true, true, true]] },
    { q: "print children = geo_h3cell_children('862a1072fffffff')", rows: [[["872a10728ffffff", "872a10729ffffff", "872a1072affffff", "872a1072bffffff", "872a1072cffffff", "872a1072dffffff", "872a1072effffff"]]] },
    { q: "let h3_cell = '862a1072fffffff'; print children_count = array_length(geo_h3cell_children(h3_cell, geo_h3cell_level(h3_cell) + 3)), five = array_length(geo_h3cell_children(h3_cell, 11))", rows: [[343, 16807]] },
    // A pentagon (base cell 4) has no child at digit 1 below its centre.
    { q: "print children = geo_h3cell_children('8009fffffffffff'), n = array_length(geo_h3cell_children('8009fffffffffff', 2))", rows: [[["81083ffffffffff", "8108bffffffffff", "8108fffffffffff", "81093ffffffffff", "81097ffffffffff", "8109bffffffffff"], 41]] },
    { q: "print a = isnull(geo_h3cell_children('abc')), b = isnull(geo_h3cell_children('862a1072fffffff', 12)), c = isnull(geo_h3cell_children('862a1072fffffff', 5)), d = isnull(geo_h3cell_children('80f5fffffffffff'))", rows: [[true, true, true, true]] },
  ]);
});
