/**
 * The demo telemetry's devices: one per machine asset of the maintenance demo data, so every
 * device's `MessageMetadata.topologyReference` is the tag number of the asset it measures
 * (docs/api.md §6). Pure functions of the seed and the plant: the telemetry seed and the tests
 * compute the same list.
 */
import { generateAssets } from "@/lib/service/demo/maintenance-assets";
import type { DemoPlant } from "../demo/catalog";

/** What a data point measures; each role has its own signal model in demo-data.ts. */
export type DataPointRole = "temperature" | "pressure" | "vibration" | "motorCurrent" | "throughput" | "running";

interface DataPointKind {
  role: DataPointRole;
  /** `States.Name`. */
  name: string;
  unit: string;
}

export const DATA_POINT_KINDS: Record<DataPointRole, DataPointKind> = {
  temperature: { role: "temperature", name: "Temperature", unit: "degC" },
  pressure: { role: "pressure", name: "Pressure", unit: "bar" },
  vibration: { role: "vibration", name: "Vibration", unit: "mm/s" },
  motorCurrent: { role: "motorCurrent", name: "MotorCurrent", unit: "A" },
  throughput: { role: "throughput", name: "Throughput", unit: "t/h" },
  running: { role: "running", name: "RunningState", unit: "bool" },
};

/** Machines that move material report throughput; the others report a process pressure. */
const THROUGHPUT_TYPES = new Set(["CONVEYOR", "EXTRUDER", "PELLETIZER", "WINDER", "ROLL", "PULPER", "REFINER", "SCREEN"]);

export interface DemoDevice {
  deviceId: string;
  plantId: string;
  /** Tag number of the maintenance asset (level MACHINE) the device measures. */
  tagNumber: string;
  deviceType: string;
  area: string;
  line: string;
  jobId: string;
  jobName: string;
  /** Five data points: four common ones plus pressure or throughput. */
  dataPoints: DataPointRole[];
}

function titleCase(type: string): string {
  return type
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

export function demoDevices(seed: string, plant: DemoPlant): DemoDevice[] {
  const machines = generateAssets(seed, plant).filter((asset) => asset.level === "MACHINE");
  const areas = [...new Set(machines.map((m) => m.area))];
  return machines.map((machine, index) => {
    const areaNo = areas.indexOf(machine.area) + 1;
    const process: DataPointRole = THROUGHPUT_TYPES.has(machine.assetType) ? "throughput" : "pressure";
    return {
      deviceId: `${plant.id}-DEV-${String(index + 1).padStart(3, "0")}`,
      plantId: plant.id,
      tagNumber: machine.tagNumber,
      deviceType: titleCase(machine.assetType),
      area: machine.area,
      line: machine.line ?? machine.area,
      jobId: `${plant.id.toLowerCase()}-opcua-${areaNo}`,
      jobName: `OPC UA collector ${plant.id} ${machine.area}`,
      dataPoints: ["temperature", process, "vibration", "motorCurrent", "running"],
    };
  });
}
