import { describe, expect, it } from "vitest";
import type { TAsset } from "@/modules/maintenance/contract/maintenance";
import { ancestorTags, buildAssetTree, visibleRows } from "./asset-tree";

function asset(tagNumber: string, parentTagNumber: string | null, extra: Partial<TAsset> = {}): TAsset {
  return {
    id: `id-${tagNumber}`,
    plantId: "RTM1",
    tagNumber,
    serialNumber: `SN-${tagNumber}`,
    externalReference: null,
    name: `Asset ${tagNumber}`,
    assetType: "MACHINE",
    location: "Hall 1",
    parentTagNumber,
    manufacturer: null,
    model: null,
    criticality: "B",
    ...extra,
  };
}

const assets = [
  asset("L1-P2", "L1"),
  asset("AREA", null, { assetType: "AREA" }),
  asset("L1", "AREA", { assetType: "LINE" }),
  asset("L1-P1", "L1", { externalReference: "SAP-4711" }),
  asset("L1-P1-M", "L1-P1", { assetType: "MOTOR", name: "Drive motor" }),
  asset("ORPHAN", "GONE"),
];

const tags = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => `${"  ".repeat(r.node.depth)}${r.node.asset.tagNumber}`);

describe("asset tree", () => {
  it("links children to parents, sorted by tag; unknown parents make roots", () => {
    const tree = buildAssetTree(assets);
    expect(tree.roots.map((r) => r.asset.tagNumber)).toEqual(["AREA", "ORPHAN"]);
    expect(ancestorTags(tree.byTag.get("L1-P1-M")!)).toEqual(["L1-P1", "L1", "AREA"]);
  });

  it("shows roots and the children of expanded nodes, with ARIA positions", () => {
    const tree = buildAssetTree(assets);
    const rows = visibleRows(tree, new Set(["AREA", "L1"]), "");
    expect(tags(rows)).toEqual(["AREA", "  L1", "    L1-P1", "    L1-P2", "ORPHAN"]);
    const p2 = rows.find((r) => r.node.asset.tagNumber === "L1-P2")!;
    expect([p2.posInSet, p2.setSize]).toEqual([2, 2]);
    expect(rows.find((r) => r.node.asset.tagNumber === "L1-P1")).toMatchObject({ expanded: false, hasChildren: true });
  });

  it("searches tag, serial, external reference and name, opening the path to each match", () => {
    const tree = buildAssetTree(assets);
    expect(tags(visibleRows(tree, new Set(), "sap-47"))).toEqual(["AREA", "  L1", "    L1-P1"]);
    expect(tags(visibleRows(tree, new Set(), "drive"))).toEqual(["AREA", "  L1", "    L1-P1", "      L1-P1-M"]);
    expect(tags(visibleRows(tree, new Set(), "SN-ORPHAN"))).toEqual(["ORPHAN"]);
    expect(visibleRows(tree, new Set(), "nothing like this")).toEqual([]);
  });

  it("survives a parent cycle in the data", () => {
    const tree = buildAssetTree([asset("A", "B"), asset("B", "A")]);
    expect(tree.roots.length).toBe(1);
    expect(visibleRows(tree, new Set(["A", "B"]), "").length).toBe(2);
  });
});
