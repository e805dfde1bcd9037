import { describe, expect, it } from "vitest";
import { csvCell } from "../contract/csv";
import { toCsv } from "./csv";

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
    // A text starting with "-" is neutralised like the others (issue 35: "-2+3+cmd|…" ran in Excel).
    expect(csvCell("-3 bar drop")).toBe("'-3 bar drop");
  });

  it("neutralises every formula start in the job history's and the explorer's exports (= + - @ tab CR)", () => {
    const text = toCsv([{ header: "Remark", value: (row: { remark: string }) => row.remark }], ["=1+1", "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "\rx", "ok"].map((remark) => ({ remark })));
    expect(text.split("\r\n").slice(1, -1)).toEqual(["'=1+1", "'+1+1", "'-2+3+cmd|' /C calc'!A0", "'@SUM(A1)", "'\tx", "\"'\rx\"", "ok"]);
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
