import { describe, expect, it } from "vitest";
import type { TLookupValue } from "@/lib/contract/maintenance";
import { lookupLabels } from "./maintenance";

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

  it("falls back to the code when a label is missing or blank, and shows no code as a dash", () => {
    expect(labels.label("activityKind", "RETIRED_KIND")).toBe("RETIRED_KIND");
    expect(labels.label("priority", "PREVENTIVE")).toBe("PREVENTIVE");
    expect(labels.label("activityKind", "BLANK")).toBe("BLANK");
    expect(labels.label("assignedToRole", null)).toBe("—");
    expect(lookupLabels(undefined).label("priority", "P1")).toBe("P1");
  });

  it("lists each kind's values in the service's order", () => {
    expect(labels.values("priority").map((entry) => entry.value)).toEqual(["P1", "P2"]);
    expect(labels.values("assignedToRole").map((entry) => entry.value)).toEqual(["MECH_TECH", "P1"]);
  });
});
