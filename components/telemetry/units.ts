/** How a unit of `DataMetadata.Unit` reads for people ("degC" is what devices send; "°C" is what people write). */
export function unitLabel(unit: string): string {
  if (unit === "") return "value";
  return ({ degC: "°C", degF: "°F", bool: "on/off (0/1)" } as Record<string, string>)[unit] ?? unit;
}
