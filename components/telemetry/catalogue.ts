"use client";
/**
 * What the chosen plants' telemetry holds, from one cheap query over the last 24 hours (one row
 * per data point and device, with a sample of its metadata): the data point names (editor
 * completion, schema panel), each data point's unit (`DataMetadata.Unit`, for chart axes), each
 * device's plant and asset (`MessageMetadata.topologyReference`, to turn an alarm into a task),
 * and the metadata keys (schema panel).
 */
import { useQuery } from "@tanstack/react-query";
import { resolveRange } from "./explorer-state";
import { fetchTelemetryQuery } from "./telemetry-api";

const CATALOGUE_QUERY = "States\n| summarize DataMetadata = any(DataMetadata), MessageMetadata = any(MessageMetadata) by Name, DeviceId, PlantId";

export interface DeviceInfo {
  plantId: string;
  /** The asset's tag number the device reports for (its topology reference), "" when none. */
  asset: string;
}

export interface Catalogue {
  names: string[];
  units: Map<string, string>;
  devices: Map<string, DeviceInfo>;
  dataMetadataKeys: string[];
  messageMetadataKeys: string[];
  firstDevice: string | undefined;
}

function keysOf(value: unknown, into: Set<string>): void {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) for (const key of Object.keys(value)) into.add(key);
}

function readCatalogue(rows: readonly unknown[][]): Catalogue {
  const units = new Map<string, string>();
  const devices = new Map<string, DeviceInfo>();
  const dataKeys = new Set<string>();
  const messageKeys = new Set<string>();
  for (const [name, deviceId, plantId, dataMetadata, messageMetadata] of rows) {
    const unit = (dataMetadata as { Unit?: unknown } | null)?.Unit;
    if (typeof name === "string" && typeof unit === "string" && !units.has(name)) units.set(name, unit);
    const asset = (messageMetadata as { topologyReference?: unknown } | null)?.topologyReference;
    if (typeof deviceId === "string" && !devices.has(deviceId)) devices.set(deviceId, { plantId: String(plantId ?? ""), asset: typeof asset === "string" ? asset : "" });
    keysOf(dataMetadata, dataKeys);
    keysOf(messageMetadata, messageKeys);
  }
  const names = [...new Set(rows.map((row) => String(row[0])))].sort();
  return {
    names,
    units,
    devices,
    dataMetadataKeys: [...dataKeys].sort(),
    messageMetadataKeys: [...messageKeys].sort(),
    firstDevice: [...devices.keys()].sort()[0],
  };
}

export function useTelemetryCatalogue(plants: readonly string[], enabled = true) {
  return useQuery({
    queryKey: ["telemetry-catalogue", plants.join(",")],
    enabled: enabled && plants.length > 0,
    queryFn: async ({ signal }) => {
      const range = resolveRange({ kind: "relative", last: "24h" }, Date.now());
      const outcome = await fetchTelemetryQuery({ query: CATALOGUE_QUERY, ...range, plantIds: [...plants] }, signal);
      return readCatalogue(outcome.result.rows);
    },
    staleTime: 10 * 60_000,
    retry: false,
  });
}
