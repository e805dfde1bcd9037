import { describe, expect, it } from "vitest";
import { completions, quotedInsertion } from "./kql-services";

describe("quotedInsertion", () => {
  it("reuses the closing quote and puts the cursor after it", () => {
    const text = 'States | where Name == "Pres"';
    const from = text.indexOf("Pres");
    const to = from + 4;
    const change = quotedInsertion(text, from, to, "Pressure");
    const after = text.slice(0, change.from) + change.insert + text.slice(change.to);
    expect(after).toBe('States | where Name == "Pressure"');
    expect(after.slice(0, change.cursor)).toBe('States | where Name == "Pressure"');
  });

  it("closes an unclosed string, with its own kind of quote", () => {
    const text = "States | where Name == 'Pre";
    const from = text.indexOf("Pre");
    const change = quotedInsertion(text, from, text.length, "Pressure");
    expect(text.slice(0, change.from) + change.insert + text.slice(change.to)).toBe("States | where Name == 'Pressure'");
    expect(change.cursor).toBe(text.length + "ssure'".length);
  });

  it("is how data point names are applied; other completions stay plain", () => {
    const text = 'States | where Name == "Pr"';
    const result = completions(text, text.length - 1, ["Pressure"]);
    expect(typeof result?.options.find((o) => o.label === "Pressure")?.apply).toBe("function");
    expect(completions("States | wh", 11, [])?.options.every((o) => typeof o.apply !== "function")).toBe(true);
  });
});
