/**
 * Unit conversions (functions/units.ts) on both engines: the documentation's printed outputs
 * (also in the docs ratchet) and the cases it leaves out: the way back, temperatures, unknown units.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("convert_*", () => {
  conformance([
    { q: "print result = convert_angle(1.2, 'Degree', 'Arcminute')", rows: [[72]], types: ["real"] },
    { q: "print result = convert_energy(1.2, 'Joule', 'BritishThermalUnit')", rows: [[0.00113738054437598]] },
    { q: "print result = convert_force(1.2, 'Newton', 'Decanewton')", rows: [[0.12]] },
    { q: "print result = convert_length(1.2, 'Meter', 'Foot'), back = convert_length(3.937007874015748, 'Foot', 'Meter'), mile = convert_length(1, 'Mile', 'Kilometer')", rows: [[3.937007874015748, 1.2, 1.609344]] },
    { q: "print result = convert_mass(1.2, 'Kilogram', 'Pound')", rows: [[2.6455471462185312]] },
    { q: "print result = convert_speed(1.2, 'MeterPerSecond', 'CentimeterPerHour'), knots = convert_speed(1, 'Knot', 'KilometerPerHour')", rows: [[432000, 1.852]] },
    { q: "print c = convert_temperature(1.2, 'Kelvin', 'DegreeCelsius'), f = convert_temperature(100, 'DegreeCelsius', 'DegreeFahrenheit'), k = convert_temperature(32, 'DegreeFahrenheit', 'Kelvin')", rows: [[-271.95, 212, 273.15]] },
    { q: "print result = convert_volume(1.2, 'CubicMeter', 'AcreFoot'), l = convert_volume(1, 'UsGallon', 'Liter')", rows: [[0.0009728568, 3.785411784]] },
    { q: "print unknown = convert_length(1, 'Meter', 'Furlong'), t = convert_temperature(1, 'Kelvin', 'Meter'), n = convert_mass(real(null), 'Gram', 'Kilogram')", rows: [[null, null, null]] },
  ]);
});
