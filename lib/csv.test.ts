import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

describe("toCsv", () => {
  it("quotes cells with separators, quotes or line breaks and writes objects as JSON", () => {
    const text = toCsv(["Name", "Value", "Note"], [
      ["Temp, inlet", 21.5, 'say "hi"'],
      ["Pressure", { bar: 2 }, null],
      ["Line\nbreak", true, undefined],
    ]);
    expect(text).toBe(
      'Name,Value,Note\r\n"Temp, inlet",21.5,"say ""hi"""\r\nPressure,"{""bar"":2}",\r\n"Line\nbreak",true,\r\n',
    );
  });

  it("writes only the header for no rows", () => {
    expect(toCsv(["a"], [])).toBe("a\r\n");
  });
});
