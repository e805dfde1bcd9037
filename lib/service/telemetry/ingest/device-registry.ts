/**
 * Which plants and devices may send telemetry: plants are the service's plants (their customer
 * picks the DuckDB file), devices are listed per plant in `telemetry_devices`. Ingestion keeps a
 * copy in memory and re-reads it every few seconds (so a removed device stops being heard); a
 * plant or device the copy does not know is looked up in the database before the message is
 * judged, so a device an operator adds with `npm run ops -- device add` is heard from its very
 * first message (normally its birth) without a restart. The lookups are point queries on the
 * primary key and ingestion takes one message at a time, so a flood from unlisted senders costs
 * one indexed read per message, never a reload.
 *
 * Each device belongs to one edge node (docs/telemetry-ingest.md, "Device ownership"): the node an
 * operator named (`device add --node`), the demo's collector job (listed by the assembly with
 * registerDemoDevices, live/demo-mqtt-publisher.ts), or the node whose DBIRTH first
 * reached a listed device that had none (`claim`, a conditional UPDATE, so two nodes racing for a
 * device leave exactly one owner).
 */
import type { SqlDb } from "../../../platform/sql";

const REFRESH_MS = 5_000;

export const DEVICE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** A listed device's owner: its edge node, or null while no node has claimed it. */
type DeviceOwner = { edgeNodeId: string | null };

export interface DeviceRegistry {
  /** The customer whose file takes the plant's readings; undefined for an unknown plant. */
  customerOf(plantId: string): Promise<string | undefined>;
  isKnownDevice(plantId: string, deviceId: string): Promise<boolean>;
  /**
   * The device's owner; undefined for a device that is not listed for the plant. `fresh` reads the
   * database rather than the cached copy (before a message is refused as foreign: an operator may
   * just have moved the device, and `device add` is heard at once).
   */
  ownerOf(plantId: string, deviceId: string, fresh?: boolean): Promise<DeviceOwner | undefined>;
  /** The first birth of an unclaimed device makes `edgeNodeId` its owner; returns the owner after the attempt. */
  claim(plantId: string, deviceId: string, edgeNodeId: string): Promise<string | null>;
}

interface ListedDevice {
  plantId: string;
  deviceId: string;
  createdAt: string;
  edgeNodeId: string | null;
  /** How the owner was set: `ops` (device add --node), `demo`, `birth` (its first DBIRTH); null while unclaimed. */
  claimedBy: string | null;
  claimedAt: string | null;
}

export function listDevices(db: SqlDb, plantId?: string, edgeNodeId?: string, deviceId?: string): Promise<ListedDevice[]> {
  const where = [plantId ? "plant_id = @plantId" : "", edgeNodeId ? "edge_node_id = @edgeNodeId" : "", deviceId ? "device_id = @deviceId" : ""].filter(Boolean);
  const sql = `SELECT plant_id AS "plantId", device_id AS "deviceId", created_at AS "createdAt", edge_node_id AS "edgeNodeId",
    claimed_by AS "claimedBy", claimed_at AS "claimedAt" FROM telemetry_devices
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY plant_id, device_id`;
  return db.all(sql, { plantId, edgeNodeId, deviceId });
}

/**
 * Adds devices (idempotent); returns how many were new or got their owner. A device given an
 * `edgeNodeId` without one gets it; `reassign` (an operator's `device add --node`) moves an owned one.
 */
export function addDevices(
  db: SqlDb,
  devices: readonly { plantId: string; deviceId: string; edgeNodeId?: string; claimedBy?: "ops" | "demo" }[],
  now = new Date(),
  reassign = false,
): Promise<number> {
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const d of devices) {
      const at = now.toISOString();
      const params = { plantId: d.plantId, deviceId: d.deviceId, now: at, node: d.edgeNodeId ?? null, by: d.edgeNodeId ? (d.claimedBy ?? "ops") : null, claimedAt: d.edgeNodeId ? at : null };
      const owned = d.edgeNodeId
        ? `ON CONFLICT (plant_id, device_id) DO UPDATE SET edge_node_id = excluded.edge_node_id, claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at
           WHERE ${reassign ? "telemetry_devices.edge_node_id IS NULL OR telemetry_devices.edge_node_id <> excluded.edge_node_id" : "telemetry_devices.edge_node_id IS NULL"}`
        : "ON CONFLICT (plant_id, device_id) DO NOTHING";
      const sql = `INSERT INTO telemetry_devices (plant_id, device_id, created_at, edge_node_id, claimed_by, claimed_at)
        VALUES (@plantId, @deviceId, @now, @node, @by, @claimedAt) ${owned}`;
      changed += (await tx.run(sql, params)).changes;
    }
    return changed;
  });
}

/**
 * Reads both lists at once and then every REFRESH_MS in the background; a name the copy lacks is
 * looked up at once. `loaded()` settles when the read under way is done.
 */
export function createDeviceRegistry(db: SqlDb, now: () => number = Date.now): DeviceRegistry & { loaded(): Promise<void> } {
  let plants = new Map<string, string>();
  /** Listed devices and their owners (null: unclaimed). */
  let devices = new Map<string, string | null>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | null = null;
  const deviceKey = (plantId: string, deviceId: string) => `${plantId}\u0000${deviceId}`;
  const load = async () => {
    const [plantRows, deviceRows] = await Promise.all([
      db.all<{ id: string; customerId: string }>(`SELECT id, customer_id AS "customerId" FROM plants`),
      db.all<{ plantId: string; deviceId: string; edgeNodeId: string | null }>(
        `SELECT plant_id AS "plantId", device_id AS "deviceId", edge_node_id AS "edgeNodeId" FROM telemetry_devices`,
      ),
    ]);
    plants = new Map(plantRows.map((p) => [p.id, p.customerId]));
    devices = new Map(deviceRows.map((d) => [deviceKey(d.plantId, d.deviceId), d.edgeNodeId ?? null]));
  };
  const refresh = () => {
    if (loading || now() - loadedAt < REFRESH_MS) return;
    loadedAt = now();
    loading = load()
      .catch((error: unknown) => console.error(`[ingest] reading the device list failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (loading = null));
  };
  /** An owner set elsewhere (ops, another instance) reaches the cached copy with its next refresh. */
  const ownerOf = async (plantId: string, deviceId: string, fresh = false): Promise<DeviceOwner | undefined> => {
    refresh();
    const key = deviceKey(plantId, deviceId);
    if (!fresh && devices.has(key)) return { edgeNodeId: devices.get(key) ?? null };
    const row = await db.get<{ edgeNodeId: string | null }>(`SELECT edge_node_id AS "edgeNodeId" FROM telemetry_devices WHERE plant_id = @plantId AND device_id = @deviceId`, { plantId, deviceId });
    if (row) devices.set(key, row.edgeNodeId ?? null);
    else devices.delete(key);
    return row ? { edgeNodeId: row.edgeNodeId ?? null } : undefined;
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
      return (await ownerOf(plantId, deviceId)) !== undefined;
    },
    ownerOf,
    async claim(plantId, deviceId, edgeNodeId) {
      const at = new Date(now()).toISOString();
      await db.run(
        `UPDATE telemetry_devices SET edge_node_id = @edgeNodeId, claimed_by = 'birth', claimed_at = @at
         WHERE plant_id = @plantId AND device_id = @deviceId AND edge_node_id IS NULL`,
        { plantId, deviceId, edgeNodeId, at },
      );
      const row = await db.get<{ edgeNodeId: string | null }>(`SELECT edge_node_id AS "edgeNodeId" FROM telemetry_devices WHERE plant_id = @plantId AND device_id = @deviceId`, { plantId, deviceId });
      const owner = row?.edgeNodeId ?? null;
      if (row) devices.set(deviceKey(plantId, deviceId), owner);
      return owner;
    },
  };
}
