/**
 * KQL's unit conversions, convert_angle … convert_volume (entry.ts says what an entry holds;
 * docs/kql-functions.md how to add one). ADX names the units as the UnitsNet library does; each
 * unit here is its size in the family's SI unit (exact definitions: the international foot, pound
 * and gallon). Temperatures are affine. A unit the table does not know gives null, as ADX does for
 * an unknown unit. The units are literals (their factors are known when spelling).
 */
import { scalar, type FunctionEntry, type SpellInput } from "./entry";

const PI = Math.PI;
const INCH = 0.0254;
const FOOT = 0.3048;
const MILE = 1609.344;
const US_SURVEY_FOOT = 1200 / 3937;
const US_GALLON = 3.785411784e-3;
const IMPERIAL_GALLON = 4.54609e-3;
const BTU = 1055.05585262;

const ANGLE: Record<string, number> = {
  Radian: 1, Deciradian: 0.1, Centiradian: 0.01, Milliradian: 1e-3, Microradian: 1e-6, Nanoradian: 1e-9,
  Degree: PI / 180, Millidegree: PI / 180e3, Microdegree: PI / 180e6, Nanodegree: PI / 180e9,
  Arcminute: PI / 10_800, Arcsecond: PI / 648_000, Gradian: PI / 200, Revolution: 2 * PI, NatoMil: (2 * PI) / 6400,
};

const ENERGY: Record<string, number> = {
  Joule: 1, Millijoule: 1e-3, Kilojoule: 1e3, Megajoule: 1e6, Gigajoule: 1e9,
  Calorie: 4.184, Kilocalorie: 4184, Megacalorie: 4.184e6,
  WattHour: 3600, KilowattHour: 3.6e6, MegawattHour: 3.6e9, GigawattHour: 3.6e12, TerawattHour: 3.6e15,
  WattDay: 86_400, KilowattDay: 8.64e7, MegawattDay: 8.64e10, GigawattDay: 8.64e13, TerawattDay: 8.64e16,
  ElectronVolt: 1.602176634e-19, KiloelectronVolt: 1.602176634e-16, MegaelectronVolt: 1.602176634e-13, GigaelectronVolt: 1.602176634e-10, TeraelectronVolt: 1.602176634e-7,
  BritishThermalUnit: BTU, KilobritishThermalUnit: BTU * 1e3, MegabritishThermalUnit: BTU * 1e6, GigabritishThermalUnit: BTU * 1e9,
  Erg: 1e-7, FootPound: 1.3558179483314004, HorsepowerHour: 2.6845195377e6,
  ThermEc: 1.05505585262e8, DecathermEc: 1.05505585262e9, ThermUs: 1.054804e8, DecathermUs: 1.054804e9, ThermImperial: 1.05505585257348e8, DecathermImperial: 1.05505585257348e9,
};

const FORCE: Record<string, number> = {
  Newton: 1, Decanewton: 10, Kilonewton: 1e3, Meganewton: 1e6, Millinewton: 1e-3, Micronewton: 1e-6, Dyn: 1e-5,
  KilogramForce: 9.80665, KiloPond: 9.80665, TonneForce: 9806.65,
  PoundForce: 4.4482216152605, KilopoundForce: 4448.2216152605, OunceForce: 4.4482216152605 / 16, Poundal: 0.138254954376, ShortTonForce: 8896.443230521,
};

const LENGTH: Record<string, number> = {
  Meter: 1, Decimeter: 0.1, Centimeter: 0.01, Millimeter: 1e-3, Micrometer: 1e-6, Nanometer: 1e-9, Angstrom: 1e-10,
  Decameter: 10, Hectometer: 100, Kilometer: 1000,
  Inch: INCH, Foot: FOOT, Yard: 0.9144, Mile: MILE, NauticalMile: 1852, Mil: INCH / 1000, Microinch: INCH / 1e6,
  Hand: 0.1016, Fathom: 1.8288, Chain: 20.1168, Shackle: 27.432, UsSurveyFoot: US_SURVEY_FOOT, DataMile: 1828.8,
  Twip: INCH / 1440, DtpPoint: INCH / 72, DtpPica: INCH / 6, PrinterPoint: INCH / 72.27, PrinterPica: (12 * INCH) / 72.27,
  AstronomicalUnit: 1.495978707e11, LightYear: 9.46073047258e15, KilolightYear: 9.46073047258e18, MegalightYear: 9.46073047258e21,
  Parsec: 3.08567758128e16, Kiloparsec: 3.08567758128e19, Megaparsec: 3.08567758128e22,
};

const MASS: Record<string, number> = {
  Kilogram: 1, Gram: 1e-3, Decagram: 1e-2, Hectogram: 0.1, Decigram: 1e-4, Centigram: 1e-5, Milligram: 1e-6, Microgram: 1e-9, Nanogram: 1e-12,
  Tonne: 1000, Kilotonne: 1e6, Megatonne: 1e9,
  Pound: 0.45359237, Kilopound: 453.59237, Megapound: 453_592.37, Ounce: 0.45359237 / 16, Grain: 6.479891e-5, Stone: 6.35029318,
  ShortTon: 907.18474, LongTon: 1016.0469088, ShortHundredweight: 45.359237, LongHundredweight: 50.80234544, Slug: 14.593902937206,
};

const SPEED: Record<string, number> = { Knot: 1852 / 3600, MilePerHour: MILE / 3600 };
for (const [unit, meters] of Object.entries({ Meter: 1, Centimeter: 0.01, Decimeter: 0.1, Millimeter: 1e-3, Micrometer: 1e-6, Nanometer: 1e-9, Kilometer: 1000, Foot: FOOT, Inch: INCH, Yard: 0.9144, UsSurveyFoot: US_SURVEY_FOOT })) {
  SPEED[`${unit}PerSecond`] = meters;
  SPEED[`${unit}PerMinute`] = meters / 60;
  SPEED[`${unit}PerHour`] = meters / 3600;
}

const VOLUME: Record<string, number> = {
  CubicMeter: 1, CubicDecimeter: 1e-3, CubicCentimeter: 1e-6, CubicMillimeter: 1e-9, CubicMicrometer: 1e-18, CubicHectometer: 1e6, CubicKilometer: 1e9,
  HectocubicMeter: 100, KilocubicMeter: 1000,
  Liter: 1e-3, Microliter: 1e-9, Milliliter: 1e-6, Centiliter: 1e-5, Deciliter: 1e-4, Decaliter: 1e-2, Hectoliter: 0.1, Kiloliter: 1, Megaliter: 1000,
  CubicInch: INCH ** 3, CubicFoot: FOOT ** 3, HectocubicFoot: 100 * FOOT ** 3, KilocubicFoot: 1000 * FOOT ** 3, MegacubicFoot: 1e6 * FOOT ** 3, CubicYard: 0.9144 ** 3, CubicMile: MILE ** 3,
  UsGallon: US_GALLON, DeciusGallon: US_GALLON / 10, DecausGallon: US_GALLON * 10, HectousGallon: US_GALLON * 100, KilousGallon: US_GALLON * 1000, MegausGallon: US_GALLON * 1e6,
  ImperialGallon: IMPERIAL_GALLON, KiloimperialGallon: IMPERIAL_GALLON * 1000, MegaimperialGallon: IMPERIAL_GALLON * 1e6,
  UsQuart: US_GALLON / 4, UsPint: US_GALLON / 8, UsOunce: US_GALLON / 128, UsTablespoon: US_GALLON / 256, UsTeaspoon: US_GALLON / 768, UsCustomaryCup: US_GALLON / 16, UsLegalCup: 2.4e-4,
  ImperialPint: IMPERIAL_GALLON / 8, ImperialOunce: IMPERIAL_GALLON / 160, MetricCup: 2.5e-4, MetricTeaspoon: 5e-6, UkTablespoon: 1.5e-5, AuTablespoon: 2e-5,
  OilBarrel: 0.158987294928, UsBeerBarrel: 0.1173477658, ImperialBeerBarrel: 0.16365924, AcreFoot: 1 / 0.000810714 /* UnitsNet's (ADX's) rounded factor, not the exact 1233.4818 m³ */, BoardFoot: (FOOT ** 2 * INCH),
};

/** Temperatures: to kelvin and back, as SQL over the value's SQL. */
const TEMPERATURE: Record<string, { toKelvin: (x: string) => string; fromKelvin: (k: string) => string }> = {
  Kelvin: { toKelvin: (x) => x, fromKelvin: (k) => k },
  DegreeCelsius: { toKelvin: (x) => `(${x} + 273.15)`, fromKelvin: (k) => `(${k} - 273.15)` },
  MillidegreeCelsius: { toKelvin: (x) => `(${x} / 1000.0 + 273.15)`, fromKelvin: (k) => `((${k} - 273.15) * 1000.0)` },
  DegreeFahrenheit: { toKelvin: (x) => `((${x} + 459.67) * 5.0 / 9.0)`, fromKelvin: (k) => `(${k} * 9.0 / 5.0 - 459.67)` },
  DegreeRankine: { toKelvin: (x) => `(${x} * 5.0 / 9.0)`, fromKelvin: (k) => `(${k} * 9.0 / 5.0)` },
  DegreeDelisle: { toKelvin: (x) => `(373.15 - ${x} * 2.0 / 3.0)`, fromKelvin: (k) => `((373.15 - ${k}) * 3.0 / 2.0)` },
  DegreeNewton: { toKelvin: (x) => `(${x} * 100.0 / 33.0 + 273.15)`, fromKelvin: (k) => `((${k} - 273.15) * 33.0 / 100.0)` },
  DegreeReaumur: { toKelvin: (x) => `(${x} * 5.0 / 4.0 + 273.15)`, fromKelvin: (k) => `((${k} - 273.15) * 4.0 / 5.0)` },
  DegreeRoemer: { toKelvin: (x) => `((${x} - 7.5) * 40.0 / 21.0 + 273.15)`, fromKelvin: (k) => `((${k} - 273.15) * 21.0 / 40.0 + 7.5)` },
  SolarTemperature: { toKelvin: (x) => `(${x} * 5778.0)`, fromKelvin: (k) => `(${k} / 5778.0)` },
};

/** A number as a SQL literal both engines read as a double. */
const real = (n: number) => (Number.isInteger(n) && Math.abs(n) < 1e15 ? `${n}.0` : n.toExponential(17).replace("e+", "e"));

const units = (input: SpellInput) => [String(input.consts[1]), String(input.consts[2])] as const;

/** Null as a double: a unit the table does not know. */
const NO_UNIT = { duckdb: "CAST(NULL AS DOUBLE)", clickhouse: "CAST(NULL AS Nullable(Float64))" };
type Spell = (input: SpellInput, none: string) => string;

function linear(table: Record<string, number>): Spell {
  return (input, none) => {
    const [from, to] = units(input);
    const a = Object.hasOwn(table, from) ? table[from] : undefined;
    const b = Object.hasOwn(table, to) ? table[to] : undefined;
    if (a === undefined || b === undefined) return none;
    return from === to ? `(${input.args[0]})` : `(${input.args[0]} * ${real(a)} / ${real(b)})`;
  };
}

const ARGS = "value: real, from: const string, to: const string";
const converter = (family: string, spell: Spell) =>
  scalar(`convert_${family}`, {
    args: ARGS,
    result: "real",
    nulls: "may",
    sql: { duckdb: (input) => spell(input, NO_UNIT.duckdb), clickhouse: (input) => spell(input, NO_UNIT.clickhouse) }, doc: `a value in one unit of ${family} in another (UnitsNet's unit names, e.g. ${family === "temperature" ? "'Kelvin', 'DegreeCelsius'" : "'Meter', 'Foot'"}); null for an unknown unit` });

export const UNITS: readonly FunctionEntry[] = [
  converter("angle", linear(ANGLE)),
  converter("energy", linear(ENERGY)),
  converter("force", linear(FORCE)),
  converter("length", linear(LENGTH)),
  converter("mass", linear(MASS)),
  converter("speed", linear(SPEED)),
  converter("volume", linear(VOLUME)),
  converter("temperature", (input, none) => {
    const [from, to] = units(input);
    const a = Object.hasOwn(TEMPERATURE, from) ? TEMPERATURE[from] : undefined;
    const b = Object.hasOwn(TEMPERATURE, to) ? TEMPERATURE[to] : undefined;
    return a && b ? b.fromKelvin(a.toKelvin(`(${input.args[0]})`)) : none;
  }),
];
