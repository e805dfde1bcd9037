import { describe, expect, it } from "vitest";
import type { TLookupValue } from "@/modules/maintenance/contract/maintenance";
import { humanizeCode, lookupLabels } from "./maintenance";

const VALUES: TLookupValue[] = [
  { kind: "activityKind", value: "PREVENTIVE", label: "Preventive maintenance" },
  { kind: "assignedToRole", value: "MECH_TECH", label: "Mechanical technician" },
  { kind: "priority", value: "P1", label: "P1 – Emergency (within 4 h)" },
  { kind: "priority", value: "P2", label: "P2 – Urgent (within 24 h)" },
  // The same code under another kind keeps its own label.
  { kind: "assignedToRole", value: "P1", label: "Pump crew 1" },
  { kind: "activityKind", value: "BLANK", label: "  " },
];

describe("lookupLabels", () => {
  const labels = lookupLabels(VALUES);

  it("reads a code as its kind's label", () => {
    expect(labels.label("activityKind", "PREVENTIVE")).toBe("Preventive maintenance");
    expect(labels.label("priority", "P1")).toBe("P1 – Emergency (within 4 h)");
    expect(labels.label("assignedToRole", "P1")).toBe("Pump crew 1");
  });

  it("falls back to the code in words when a label is missing or blank, and shows no code as a dash", () => {
    expect(labels.label("activityKind", "RETIRED_KIND")).toBe("Retired kind");
    expect(labels.label("priority", "PREVENTIVE")).toBe("Preventive");
    expect(labels.label("activityKind", "BLANK")).toBe("Blank");
    expect(labels.label("assignedToRole", null)).toBe("—");
    expect(lookupLabels(undefined).label("priority", "P1")).toBe("P1");
    // A service without lookup values (one that follows only the spec): every code in words.
    expect(lookupLabels(undefined).label("activityKind", "CORRECTIVE")).toBe("Corrective");
  });

  it("lists each kind's values in the service's order", () => {
    expect(labels.values("priority").map((entry) => entry.value)).toEqual(["P1", "P2"]);
    expect(labels.values("assignedToRole").map((entry) => entry.value)).toEqual(["MECH_TECH", "P1"]);
  });
});

describe("humanizeCode", () => {
  it("writes the customers' codes as words, sentence case", () => {
    expect(humanizeCode("MECH_TECH")).toBe("Mech tech");
    expect(humanizeCode("SHIFT_LEADER")).toBe("Shift leader");
    expect(humanizeCode("1-CRITICAL")).toBe("1 critical");
    expect(humanizeCode("LUBRICATION")).toBe("Lubrication");
  });

  it("keeps abbreviations, codes with digits and anything not written as a code", () => {
    expect(humanizeCode("PM")).toBe("PM");
    expect(humanizeCode("CAL")).toBe("CAL");
    expect(humanizeCode("P1")).toBe("P1");
    expect(humanizeCode("Pump crew 1")).toBe("Pump crew 1");
    expect(humanizeCode("pm-daily")).toBe("pm-daily");
    expect(humanizeCode("A__B")).toBe("A__B");
  });
});
