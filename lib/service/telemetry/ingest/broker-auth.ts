/**
 * Broker authorisation as a deployment step (docs/telemetry-ingest.md, "Broker authorisation"):
 * what Mosquitto needs so that an edge node may publish only its own Sparkplug topics, and the
 * service's ingestion (the primary host application) reads everything and commands nodes.
 * Ingestion trusts the topic (plant = group, device = device id); the broker is what makes the
 * topic trustworthy, so each edge node gets its own user and an ACL of its own namespace.
 *
 * Password-file entries are in Mosquitto 2's format (`user:$7$<iterations>$<salt>$<hash>`,
 * PBKDF2-SHA512, a 12-byte salt, a 64-byte hash), the format `mosquitto_passwd` writes.
 */
import crypto from "node:crypto";

/** Sparkplug ids may not contain `/`, `+` or `#`; `:` would break the password file. */
export const SPARKPLUG_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ITERATIONS = 1000;

/** The broker user of an edge node: `<plant>/<node>` (`/` cannot occur in either id). */
export const edgeNodeUser = (plantId: string, nodeId: string) => `${plantId}/${nodeId}`;

export function mosquittoPasswordEntry(user: string, password: string, salt = crypto.randomBytes(12)): string {
  const hash = crypto.pbkdf2Sync(password, salt, ITERATIONS, 64, "sha512");
  return `${user}:$7$${ITERATIONS}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** A random password for a new user: 24 bytes, base64url (no character the password file or a URL minds). */
export function newBrokerPassword(): string {
  return crypto.randomBytes(24).toString("base64url");
}

/**
 * An edge node's ACL: it publishes its own node messages (NBIRTH, NDATA, its Will NDEATH) and the
 * device messages of the devices it owns, each named (docs/telemetry-ingest.md, "Device
 * ownership"): another device id is refused by the broker, not only dropped by ingestion. It
 * reads the commands addressed to it and the primary host's STATE.
 */
export function edgeNodeAcl(plantId: string, nodeId: string, deviceIds: readonly string[]): string[] {
  return [
    `user ${edgeNodeUser(plantId, nodeId)}`,
    ...["NBIRTH", "NDATA", "NDEATH"].map((type) => `topic write spBv1.0/${plantId}/${type}/${nodeId}`),
    ...deviceIds.flatMap((device) => ["DBIRTH", "DDATA", "DDEATH"].map((type) => `topic write spBv1.0/${plantId}/${type}/${nodeId}/${device}`)),
    `topic read spBv1.0/${plantId}/NCMD/${nodeId}/#`,
    `topic read spBv1.0/${plantId}/DCMD/${nodeId}/#`,
    `topic read spBv1.0/STATE/+`,
  ];
}

/**
 * The service's ACL (MQTT_URL's user): reads every Sparkplug message and the JSON topic, sends
 * node commands (rebirth requests), and owns its STATE topic.
 */
export function hostAcl(user: string, hostId: string): string[] {
  return [
    `user ${user}`,
    `topic read spBv1.0/+/+/+/#`,
    `topic read plantdesk/v1/#`,
    `topic write spBv1.0/+/NCMD/#`,
    `topic readwrite spBv1.0/STATE/${hostId}`,
  ];
}
