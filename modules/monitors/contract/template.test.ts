/** `{Column}` substitution in a monitor's task template: values as plain text, bounded, braces escapable. */
import { describe, expect, it } from "vitest";
import { fillTemplate, templateColumns, valueText } from "./template";

describe("task templates", () => {
  it("replaces named columns with the row's values and leaves unknown names as written", () => {
    expect(fillTemplate("{DeviceId}: {MaxValue} °C ({Other})", { DeviceId: "RTM1-DEV-001", MaxValue: 81.23456789 }, 200)).toBe("RTM1-DEV-001: 81.2346 °C ({Other})");
    expect(templateColumns("{A} and {B} and {A} but {{C}}")).toEqual(["A", "B"]);
    expect(fillTemplate("{{literal}} {A}", { A: 1 }, 200)).toBe("{literal} 1");
  });

  it("writes values as plain text without control characters, each and the whole bounded", () => {
    expect(valueText("line\nbreak\u0007bell")).toBe("line break bell");
    expect(valueText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(valueText(null)).toBe("");
    expect(valueText("x".repeat(500))).toHaveLength(200);
    const filled = fillTemplate("{A}{A}{A}", { A: "y".repeat(500) }, 200);
    expect(filled).toHaveLength(200);
    expect(filled.endsWith("…")).toBe(true);
  });
});
