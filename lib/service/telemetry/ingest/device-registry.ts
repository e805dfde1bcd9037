/**
 * Which plants and devices may send telemetry: plants are the service's plants (their customer
 * picks the DuckDB file), devices are listed per plant in `telemetry_devices`. Ingestion keeps a
 * copy in memory and re-reads it every few seconds (so a removed device stops being heard); a
 * plant or device the copy does not know is looked up in the database before the message is
 * judged, so a device an operator adds with `npm run ops -- device add` is heard from its very
 * first message (normally its birth) without a restart. The lookups are point queries on the
 * primary key and ingestion takes one message at a time, so a flood from unlisted senders costs
 * one indexed read per message, never a reload.
 */
import type { SqlDb } from "../../../platform/sql";
import type { DemoPlant } from "../../demo/catalog";
import { demoDevices } from "../demo-devices";

const REFRESH_MS = 5_000;

export const DEVICE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface DeviceRegistry {
  /** The customer whose file takes the plant's readings; undefined for an unknown plant. */
  customerOf(plantId: string): Promise<string | undefined>;
  isKnownDevice(plantId: string, deviceId: string): Promise<boolean>;
}

export function listDevices(db: SqlDb, plantId?: string): Promise<{ plantId: string; deviceId: string; createdAt: string }[]> {
  const sql = `SELECT plant_id AS "plantId", device_id AS "deviceId", created_at AS "createdAt" FROM telemetry_devices
    ${plantId ? "WHERE plant_id = @plantId" : ""} ORDER BY plant_id, device_id`;
  return db.all(sql, { plantId });
}

/** Adds devices (idempotent); returns how many were new. */
export function addDevices(db: SqlDb, devices: readonly { plantId: string; deviceId: string }[], now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    let added = 0;
    for (const d of devices) {
      const sql = `INSERT INTO telemetry_devices (plant_id, device_id, created_at) VALUES (@plantId, @deviceId, @now) ON CONFLICT (plant_id, device_id) DO NOTHING`;
      added += (await tx.run(sql, { plantId: d.plantId, deviceId: d.deviceId, now: now.toISOString() })).changes;
    }
    return added;
  });
}

/** Lists the demo devices of the demo plants, so the demo can publish through ingestion. */
export function registerDemoDevices(db: SqlDb, seed: string, plants: readonly DemoPlant[]): Promise<number> {
  return addDevices(
    db,
    plants.flatMap((plant) => {
      try {
        return demoDevices(seed, plant).map((d) => ({ plantId: plant.id, deviceId: d.deviceId }));
      } catch {
        return []; // a plant without a demo layout has no demo devices
      }
    }),
  );
}

/**
 * Reads both lists at once and then every REFRESH_MS in the background; a name the copy lacks is
 * looked up at once. `loaded()` settles when the read under way is done.
 */
export function createDeviceRegistry(db: SqlDb, now: () => number = Date.now): DeviceRegistry & { loaded(): Promise<void> } {
  let plants = new Map<string, string>();
  let devices = new Set<string>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | null = null;
  const deviceKey = (plantId: string, deviceId: string) => `${plantId}\u0000${deviceId}`;
  const load = async () => {
    const [plantRows, deviceRows] = await Promise.all([
      db.all<{ id: string; customerId: string }>(`SELECT id, customer_id AS "customerId" FROM plants`),
      db.all<{ plantId: string; deviceId: string }>(`SELECT plant_id AS "plantId", device_id AS "deviceId" FROM telemetry_devices`),
    ]);
    plants = new Map(plantRows.map((p) => [p.id, p.customerId]));
    devices = new Set(deviceRows.map((d) => deviceKey(d.plantId, d.deviceId)));
  };
  const refresh = () => {
    if (loading || now() - loadedAt < REFRESH_MS) return;
    loadedAt = now();
    loading = load()
      .catch((error: unknown) => console.error(`[ingest] reading the device list failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (loading = null));
  };
  refresh();
  return {
    loaded: () => loading ?? Promise.resolve(),
    async customerOf(plantId) {
      refresh();
      const known = plants.get(plantId);
      if (known !== undefined) return known;
      const row = await db.get<{ customerId: string }>(`SELECT customer_id AS "customerId" FROM plants WHERE id = @plantId`, { plantId });
      if (row) plants.set(plantId, row.customerId);
      return row?.customerId;
    },
    async isKnownDevice(plantId, deviceId) {
      refresh();
      const key = deviceKey(plantId, deviceId);
      if (devices.has(key)) return true;
      const row = await db.get(`SELECT 1 AS found FROM telemetry_devices WHERE plant_id = @plantId AND device_id = @deviceId`, { plantId, deviceId });
      if (row) devices.add(key);
      return row !== undefined;
    },
  };
}
