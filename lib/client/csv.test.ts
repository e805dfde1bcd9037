import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("csv", () => {
  it("quotes only cells that need it and doubles inner quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell(2.5)).toBe("2.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell(false)).toBe("false");
  });

  it("neutralises spreadsheet formulas in text but keeps negative numbers", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell("-3 bar drop")).toBe("-3 bar drop");
  });

  it("writes a header row and CRLF line ends", () => {
    const text = toCsv(
      [
        { header: "Id", value: (row: { id: string; hours: number }) => row.id },
        { header: "Hours", value: (row) => row.hours },
      ],
      [
        { id: "J1", hours: 1.5 },
        { id: "J,2", hours: 0 },
      ],
    );
    expect(text).toBe('Id,Hours\r\nJ1,1.5\r\n"J,2",0\r\n');
  });
});
