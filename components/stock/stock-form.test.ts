import { describe, expect, it } from "vitest";
import { toStockLevel, validateStockForm } from "./stock-form";

describe("stock-level form checks", () => {
  it("builds the body the service expects, leaving isShort out when automatic", () => {
    expect(toStockLevel("P-1", { quantity: "12.5", unit: "KG", remark: " counted ", isShort: "auto" })).toEqual({ id: "P-1", quantity: 12.5, unit: "KG", remark: "counted" });
    expect(toStockLevel("P-1", { quantity: "0", unit: "PCS", remark: "", isShort: "yes" })).toEqual({ id: "P-1", quantity: 0, unit: "PCS", remark: null, isShort: true });
  });

  it("refuses what the server refuses", () => {
    expect(validateStockForm("P-1", { quantity: "", unit: "PCS", remark: "", isShort: "auto" }).quantity).toBeDefined();
    expect(validateStockForm("P-1", { quantity: "-1", unit: "PCS", remark: "", isShort: "auto" }).quantity).toBeDefined();
    expect(validateStockForm("P-1", { quantity: "abc", unit: "PCS", remark: "", isShort: "auto" }).quantity).toBeDefined();
    expect(validateStockForm("P-1", { quantity: "3", unit: "LITRE", remark: "", isShort: "auto" }).unit).toBeDefined();
    expect(validateStockForm("P-1", { quantity: "3", unit: "PCS", remark: "x".repeat(1001), isShort: "auto" }).remark).toMatch(/1000/);
    expect(validateStockForm("P-1", { quantity: "3", unit: "PCS", remark: "ok", isShort: "no" })).toEqual({});
  });
});
