import { describe, expect, it } from "vitest";
import type { TStockLevelEntry } from "@/modules/maintenance/contract/maintenance";
import { ambiguousNumber, parseLocaleNumber } from "@/lib/client/format";
import { correctedAt, correctionPrefix, corrections, plausibility, readableRemark, toStockLevel, validateStockForm } from "./stock-form";

const entry = (quantity: number, submittedAt: string, remark: string | null = null): TStockLevelEntry => ({ partId: "P-1", quantity, unit: "KG", remark, isShort: false, submittedAt });

describe("numbers as people type them", () => {
  it("reads decimal commas in Dutch and Finnish, points in English, and plain digits everywhere", () => {
    expect(parseLocaleNumber("1,5", "nl-NL")).toBe(1.5);
    expect(parseLocaleNumber("1.250,75", "nl-NL")).toBe(1250.75);
    expect(parseLocaleNumber("1.000.000", "nl-NL")).toBe(1_000_000);
    expect(parseLocaleNumber("2.5", "nl-NL")).toBe(2.5);
    expect(parseLocaleNumber("1 250,5", "fi-FI")).toBe(1250.5);
    expect(parseLocaleNumber("1.5", "en-US")).toBe(1.5);
    expect(parseLocaleNumber("1,250.5", "en-US")).toBe(1250.5);
    expect(parseLocaleNumber("42", "en-US")).toBe(42);
  });

  it("refuses exponents, letters, two decimal marks and grouping that is not in threes", () => {
    for (const text of ["1e9", "1E3", "12kg", "", "1,5,5", "1.2.3,4,5", "12,34,567.1", "--1", "0x10", "Infinity"]) expect(parseLocaleNumber(text, "nl-NL"), text).toBeNull();
  });

  it("takes an unambiguous decimal comma in English, and names the mark when a number could be read either way", () => {
    expect(parseLocaleNumber("1,5", "en-US")).toBe(1.5);
    expect(parseLocaleNumber("12,25", "en-GB")).toBe(12.25);
    expect(ambiguousNumber("1,5", "en-US")).toBeNull();
    expect(ambiguousNumber("1,500", "en-US")).toBe('"1,500" could mean 1500 or 1.500 (the comma may group thousands or mark decimals): write 1500 or 1.500.');
    expect(ambiguousNumber("1.500", "nl-NL")).toContain("the point may group thousands");
    expect(ambiguousNumber("1500", "en-US")).toBeNull();
  });
});

describe("stock-level form checks", () => {
  it("refuses a fraction of a counted item, and an ambiguous number, with words that say why", async () => {
    expect((await validateStockForm("P-1", { quantity: "2.5", unit: "PCS", remark: "", isShort: "auto" }, "en-US")).quantity).toBe("Enter a whole number: PCS are counted in whole items.");
    expect((await validateStockForm("P-1", { quantity: "1,500", unit: "KG", remark: "", isShort: "auto" }, "en-US")).quantity).toContain("comma");
    expect(await validateStockForm("P-1", { quantity: "2,5", unit: "KG", remark: "", isShort: "auto" }, "en-US")).toEqual({});
  });

  it("builds the body the service expects, leaving isShort out when automatic", () => {
    expect(toStockLevel("P-1", { quantity: "12,5", unit: "KG", remark: " counted ", isShort: "auto" }, "nl-NL")).toEqual({ id: "P-1", quantity: 12.5, unit: "KG", remark: "counted" });
    expect(toStockLevel("P-1", { quantity: "0", unit: "PCS", remark: "", isShort: "yes" }, "en-GB")).toEqual({ id: "P-1", quantity: 0, unit: "PCS", remark: null, isShort: true });
    expect(toStockLevel("P-1", { quantity: "3", unit: "KG", remark: "typo", isShort: "auto" }, "en-GB", "Correction of X").remark).toBe("Correction of X: typo");
  });

  it("refuses what the server refuses, and exponents", async () => {
    expect((await validateStockForm("P-1", { quantity: "", unit: "PCS", remark: "", isShort: "auto" }, "en-GB")).quantity).toBeDefined();
    expect((await validateStockForm("P-1", { quantity: "-1", unit: "PCS", remark: "", isShort: "auto" }, "en-GB")).quantity).toBe("Enter a number of 0 or more.");
    expect((await validateStockForm("P-1", { quantity: "1e9", unit: "PCS", remark: "", isShort: "auto" }, "nl-NL", "12,5")).quantity).toMatch(/plain number, such as 12,5/);
    expect((await validateStockForm("P-1", { quantity: "3", unit: "LITRE", remark: "", isShort: "auto" }, "en-GB")).unit).toBeDefined();
    expect((await validateStockForm("P-1", { quantity: "3", unit: "PCS", remark: "x".repeat(1001), isShort: "auto" }, "en-GB")).remark).toMatch(/1000/);
    expect(await validateStockForm("P-1", { quantity: "1,5", unit: "KG", remark: "ok", isShort: "no" }, "nl-NL")).toEqual({});
  });
});

describe("plausibility against the part's history", () => {
  const history = [entry(12, "2026-11-21T10:00:00.000Z"), entry(15, "2026-11-01T10:00:00.000Z")];
  it("asks about a jump of more than ten times either way, never about running out or a few units", () => {
    expect(plausibility(120, history)).toBeNull();
    expect(plausibility(121, history)).toMatchObject({ direction: "up", reference: { quantity: 12 } });
    expect(plausibility(1e9, history)).toMatchObject({ direction: "up" });
    expect(plausibility(0, history)).toBeNull();
    expect(plausibility(5, [])).toBeNull();
    // 1 → 18 gaskets is a delivery; 600 → 5 is a real drop.
    expect(plausibility(18, [entry(1, "2026-11-21T10:00:00.000Z")])).toBeNull();
    expect(plausibility(5, [entry(600, "2026-11-21T10:00:00.000Z")])).toMatchObject({ direction: "down" });
  });

  it("compares with the largest count when the last one was zero", () => {
    expect(plausibility(500, [entry(0, "2026-11-21T10:00:00.000Z"), entry(40, "2026-11-01T10:00:00.000Z")])).toMatchObject({ reference: { quantity: 40 } });
    expect(plausibility(500, [entry(0, "2026-11-21T10:00:00.000Z")])).toBeNull();
  });
});

describe("corrections", () => {
  it("name the count they correct, and the history knows which counts were corrected", () => {
    const wrong = entry(1e9, "2026-11-22T08:15:00.000Z");
    const prefix = correctionPrefix(wrong);
    expect(prefix).toBe("Correction of the count of 2026-11-22T08:15:00.000Z (1000000000 KG)");
    const fix = entry(12.5, "2026-11-22T08:20:00.000Z", `${prefix}: typed a 1 and nine zeros`);
    expect(correctedAt(fix.remark)).toBe(wrong.submittedAt);
    expect(correctedAt("counted twice")).toBeNull();
    expect(corrections([fix, wrong]).get(wrong.submittedAt)).toBe(fix);
    expect(readableRemark(fix.remark, (iso) => iso.slice(0, 10), (n) => n.toLocaleString("nl-NL"))).toBe("Corrects the count of 2026-11-22 (1.000.000.000 KG): typed a 1 and nine zeros");
    expect(readableRemark("Delivery", String, String)).toBe("Delivery");
  });
});
