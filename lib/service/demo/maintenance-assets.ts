/**
 * The demo plants' asset hierarchy (area > line > machine > component), deterministic from the seed:
 * the maintenance seed writes it, and the telemetry seed puts its devices on the machines, so alarms
 * and jobs meet at the asset.
 */
import { DEMO_PLANTS, type DemoPlant } from "./catalog";
import { COMPONENTS, MACHINES, PLANT_LAYOUTS } from "./maintenance-content";
import { createRandom } from "./seeded-random";

export interface SeedAsset {
  id: string;
  tagNumber: string;
  serialNumber: string | null;
  externalReference: string | null;
  name: string;
  assetType: string;
  level: "AREA" | "LINE" | "MACHINE" | "COMPONENT";
  location: string;
  parentTagNumber: string | null;
  manufacturer: string | null;
  model: string | null;
  criticality: "A" | "B" | "C";
  area: string;
  line: string | null;
  /** Spare-part families and trade, for believable jobs. */
  partFamilies: readonly string[];
  trade: "mechanical" | "electrical" | "instrument";
}

/** The asset hierarchy of one plant; depends only on the seed and the plant. */
export function generateAssets(seed: string, plant: DemoPlant): SeedAsset[] {
  const layout = PLANT_LAYOUTS[plant.id];
  if (!layout) throw new Error(`No demo layout for plant ${plant.id}.`);
  const random = createRandom(seed, plant.id, "assets");
  const assets: SeedAsset[] = [];
  let externalNumber = 10_000_000 + random.int(0, 8_999) * 1000;
  const nextExternal = () => String((externalNumber += random.int(1, 9)));
  const serial = (maker: string) =>
    `${maker.replace(/[^A-Za-z]/g, "").slice(0, 3).toUpperCase()}${random.int(10, 99)}-${random.int(100000, 999999)}`;

  layout.areas.forEach((area, areaIndex) => {
    const areaNo = areaIndex + 1;
    const areaTag = `${plant.id}-A${areaNo}`;
    const building = layout.building[areaIndex % layout.building.length]!;
    assets.push({
      id: `${plant.id}-AS${String(assets.length + 1).padStart(4, "0")}`,
      tagNumber: areaTag,
      serialNumber: null,
      externalReference: `FL-${plant.id}-${areaNo}00`,
      name: area.name,
      assetType: "AREA",
      level: "AREA",
      location: building,
      parentTagNumber: null,
      manufacturer: null,
      model: null,
      criticality: "A",
      area: area.name,
      line: null,
      partFamilies: [],
      trade: "mechanical",
    });
    area.lines.forEach((line, lineIndex) => {
      const lineNo = lineIndex + 1;
      const lineTag = `${plant.id}-A${areaNo}-L${lineNo}`;
      assets.push({
        id: `${plant.id}-AS${String(assets.length + 1).padStart(4, "0")}`,
        tagNumber: lineTag,
        serialNumber: null,
        externalReference: `FL-${plant.id}-${areaNo}${lineNo}0`,
        name: line.name,
        assetType: "LINE",
        level: "LINE",
        location: `${building}, ${area.name}`,
        parentTagNumber: areaTag,
        manufacturer: null,
        model: null,
        criticality: random.pick(["A", "B"] as const),
        area: area.name,
        line: line.name,
        partFamilies: [],
        trade: "mechanical",
      });
      line.machines.forEach((kindName, machineIndex) => {
        const kind = MACHINES[kindName]!;
        const [maker, model] = random.pick(kind.makers);
        const machineTag = `${plant.id}-${kind.code}-${areaNo}${lineNo}${String(machineIndex + 1).padStart(2, "0")}`;
        const machineName = random.pick(kind.names);
        assets.push({
          id: `${plant.id}-AS${String(assets.length + 1).padStart(4, "0")}`,
          tagNumber: machineTag,
          serialNumber: serial(maker),
          externalReference: nextExternal(),
          name: machineName,
          assetType: kind.assetType,
          level: "MACHINE",
          location: `${building}, ${line.name}, level ${random.int(0, 3)}`,
          parentTagNumber: lineTag,
          manufacturer: maker,
          model,
          criticality: random.chance(0.2) ? random.pick(["A", "B", "C"] as const) : kind.criticality,
          area: area.name,
          line: line.name,
          partFamilies: kind.parts,
          trade: kind.trade,
        });
        const componentCount = Math.min(kind.components.length, random.int(2, 4));
        for (const code of kind.components.slice(0, componentCount)) {
          const component = COMPONENTS[code]!;
          const [cMaker, cModel] = random.pick(component.makers);
          assets.push({
            id: `${plant.id}-AS${String(assets.length + 1).padStart(4, "0")}`,
            tagNumber: `${machineTag}-${component.code}`,
            serialNumber: serial(cMaker),
            externalReference: random.chance(0.85) ? nextExternal() : null,
            name: `${component.name} of ${machineName.toLowerCase()}`,
            assetType: component.assetType,
            level: "COMPONENT",
            location: `${building}, ${line.name}`,
            parentTagNumber: machineTag,
            manufacturer: cMaker,
            model: cModel,
            criticality: random.pick(["B", "C", "C"] as const),
            area: area.name,
            line: line.name,
            partFamilies: component.parts,
            trade: component.assetType === "INSTRUMENT" ? "instrument" : component.assetType === "MOTOR" || component.assetType === "DRIVE" ? "electrical" : "mechanical",
          });
        }
      });
    });
  });
  return assets;
}

/**
 * Machine-level assets of every demo plant (tag numbers and where they sit), for the telemetry seed:
 * each device's `topologyReference` is one of these tags, so alarms and jobs meet at the asset.
 */
export function demoMachineAssets(seed: string): Record<string, Pick<SeedAsset, "tagNumber" | "name" | "assetType" | "area" | "line">[]> {
  return Object.fromEntries(
    DEMO_PLANTS.map((plant) => [
      plant.id,
      generateAssets(seed, plant)
        .filter((asset) => asset.level === "MACHINE")
        .map(({ tagNumber, name, assetType, area, line }) => ({ tagNumber, name, assetType, area, line })),
    ]),
  );
}
