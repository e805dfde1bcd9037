/**
 * Operator commands of ingestion: `ingest status` (the server's counters, read from the status
 * file it replaces every 2 s, so it works while the server runs and never touches DuckDB) and the
 * device list ingestion accepts readings from (`device add`, `device list`).
 */
import { OpsError, UsageError, requireString, table, type OpsCommand } from "../../../platform/ops/command";
import { edgeNodeAcl, edgeNodeUser, hostAcl, mosquittoPasswordEntry, newBrokerPassword, SPARKPLUG_ID } from "./broker-auth";
import { addDevices, DEVICE_ID, listDevices } from "./device-registry";
import { readStatusFile, STATUS_INTERVAL_MS, statusFile, type DropReason, type IngestStatus } from "./stats";

/** A status file older than this many intervals was left by a server that is no longer running. */
const STALE_AFTER_MS = 5 * STATUS_INTERVAL_MS;

function ingestReport(status: IngestStatus, now: number) {
  const ageMs = Math.max(0, now - Date.parse(status.updatedAt));
  return {
    state: ageMs > STALE_AFTER_MS ? ("stale" as const) : ("running" as const),
    updatedAt: status.updatedAt,
    statusAgeMs: ageMs,
    pid: status.pid,
    mqtt: status.mqtt,
    demo: status.demo,
    messages: { received: status.messagesReceived, dropped: status.droppedMessages },
    readings: {
      received: status.readingsReceived,
      written: status.readingsWritten,
      dropped: status.droppedReadings,
      queued: status.queued,
    },
    lag: { oldestQueuedMs: status.oldestQueuedMs, lastBatchMs: status.lastBatchLagMs },
    batches: status.batches,
    pauses: status.pauses,
    rebirthRequests: status.rebirthRequests ?? 0,
    lastReadingAt: status.lastReadingAt,
    lastWriteAt: status.lastWriteAt,
  };
}

const reasons = (counts: Partial<Record<DropReason, number>>) =>
  Object.entries(counts)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(", ") || "none";

/** The report as the operator reads it, one aspect a line. */
function describeIngest(report: ReturnType<typeof ingestReport>): string {
  return [
    `State:     ${report.state}${report.state === "stale" ? ` (last update ${Math.round(report.statusAgeMs / 1000)} s ago: is the server running?)` : ""}`,
    `MQTT:      ${report.mqtt ? `${report.mqtt.broker} as ${report.mqtt.clientId}, ${report.mqtt.connected ? "connected" : "NOT connected"}, ${report.mqtt.reconnects} reconnects` : "off (MQTT_URL unset)"}`,
    `Demo:      ${report.demo ? `live, readings ${report.demo.publish === "mqtt" ? "published over MQTT" : "written directly"}` : "off"}`,
    `Messages:  ${report.messages.received} received; dropped: ${reasons(report.messages.dropped)}`,
    `Readings:  ${report.readings.received} received, ${report.readings.written} written, ${report.readings.queued} queued; dropped: ${reasons(report.readings.dropped)}`,
    `Sparkplug: ${report.rebirthRequests} rebirth requests sent`,
    `Lag:       oldest queued ${report.lag.oldestQueuedMs} ms, last batch ${report.lag.lastBatchMs ?? "-"} ms (receive → commit)`,
    `Last:      reading ${report.lastReadingAt ?? "-"}, write ${report.lastWriteAt ?? "-"}`,
  ].join("\n");
}

const ingestStatus: OpsCommand = {
  name: "ingest status",
  usage: "[--json]",
  summary: "Telemetry ingestion of the running server: messages received, readings written, dropped by reason, lag.",
  run(ctx) {
    const status = readStatusFile(ctx.config.dataDir);
    if (!status) {
      throw new OpsError(`No ingestion status at ${statusFile(ctx.config.dataDir)}: the server has not run here with MQTT_URL or DEMO_LIVE.`);
    }
    const report = ingestReport(status, Date.now());
    ctx.result(describeIngest(report), report);
  },
};

/** `--plant <plantId>`, which both device commands take. */
const PLANT_OPTION = { plant: { type: "string" } } as const;

const deviceAdd: OpsCommand = {
  name: "device add",
  usage: "--plant <plantId> [--node <edgeNodeId>] <deviceId> [--json]",
  summary: "Allow a device to send telemetry for a plant, owned by one edge node (without --node, its first DBIRTH claims it).",
  options: { ...PLANT_OPTION, node: { type: "string" } },
  positionals: 1,
  async run(ctx, args) {
    const plantId = requireString(args, "plant");
    const deviceId = args.positionals[0];
    const node = typeof args.values.node === "string" ? args.values.node : undefined;
    if (!deviceId) throw new UsageError("The device id is required.");
    if (!DEVICE_ID.test(deviceId)) throw new UsageError("A device id is 1–128 letters, digits, '.', '_', ':' or '-', starting with a letter or digit.");
    if (node !== undefined && !SPARKPLUG_ID.test(node)) throw new UsageError("An edge node id is 1–128 letters, digits, '.', '_' or '-' (Sparkplug forbids '/', '+' and '#').");
    const db = await ctx.db();
    const known = await db.get(`SELECT id FROM plants WHERE id = @plantId`, { plantId });
    if (!known) throw new OpsError(`Unknown plant '${plantId}' (see \`plants\`).`);
    const [before] = await listDevices(db, plantId, undefined, deviceId);
    // The operator's word moves a device to another node (a replaced gateway); a birth never does.
    const changed = (await addDevices(db, [{ plantId, deviceId, ...(node ? { edgeNodeId: node } : {}) }], new Date(), true)) > 0;
    const [after] = await listDevices(db, plantId, undefined, deviceId);
    const owner = after?.edgeNodeId ?? null;
    const text = !before
      ? `Added ${deviceId} to ${plantId}, ${owner ? `owned by edge node ${owner}` : "unclaimed: the first DBIRTH of an edge node claims it"}.`
      : changed
        ? `${deviceId} of ${plantId} now belongs to edge node ${owner}${before.edgeNodeId ? ` (was ${before.edgeNodeId})` : ""}; regenerate both nodes' broker ACLs (mqtt credentials).`
        : `${deviceId} was already listed for ${plantId}${owner ? `, owned by edge node ${owner}` : ", unclaimed"}.`;
    ctx.result(text, { plantId, deviceId, added: !before, edgeNodeId: owner, previousEdgeNodeId: before?.edgeNodeId ?? null });
  },
};

const deviceList: OpsCommand = {
  name: "device list",
  usage: "[--plant <plantId>] [--json]",
  summary: "List the devices allowed to send telemetry, with the edge node each belongs to and how it was claimed.",
  options: PLANT_OPTION,
  async run(ctx, args) {
    const plant = typeof args.values.plant === "string" ? args.values.plant : undefined;
    const devices = await listDevices(await ctx.db(), plant);
    ctx.result(
      table(
        ["PLANT", "DEVICE", "EDGE NODE", "CLAIMED", "ADDED"],
        devices.map((d) => [d.plantId, d.deviceId, d.edgeNodeId ?? "(unclaimed)", d.claimedBy ? `${d.claimedBy} ${d.claimedAt}` : "-", d.createdAt]),
      ),
      devices,
    );
  },
};

/**
 * `mqtt credentials`: a broker user for one edge node (or, with `--host`, for the service), as
 * Mosquitto's password-file line and ACL lines (docs/telemetry-ingest.md, "Broker authorisation").
 * The password is generated unless given and printed once, here only: the service never stores it.
 */
const mqttCredentials: OpsCommand = {
  name: "mqtt credentials",
  usage: "(--plant <plantId> --node <edgeNodeId> | --host <user>) [--password <password>] [--json]",
  summary: "Mosquitto password-file entry and ACL lines for an edge node (publishes only its own Sparkplug topics) or for the service.",
  options: { plant: { type: "string" }, node: { type: "string" }, host: { type: "string" }, password: { type: "string" } },
  async run(ctx, args) {
    const given = args.values.password;
    if (given !== undefined && (typeof given !== "string" || given.length < 12 || given.length > 256)) throw new UsageError("--password needs 12–256 characters.");
    const password = typeof given === "string" ? given : newBrokerPassword();
    let user: string;
    let acl: string[];
    if (typeof args.values.host === "string") {
      user = args.values.host;
      if (!SPARKPLUG_ID.test(user)) throw new UsageError("The host user is 1–128 letters, digits, '.', '_' or '-'.");
      acl = hostAcl(user, ctx.config.SPARKPLUG_HOST_ID);
    } else {
      const plantId = requireString(args, "plant");
      const nodeId = requireString(args, "node");
      if (!SPARKPLUG_ID.test(nodeId)) throw new UsageError("An edge node id is 1–128 letters, digits, '.', '_' or '-' (Sparkplug forbids '/', '+' and '#').");
      const db = await ctx.db();
      if (!(await db.get(`SELECT id FROM plants WHERE id = @plantId`, { plantId }))) throw new OpsError(`Unknown plant '${plantId}' (see \`plants\`).`);
      user = edgeNodeUser(plantId, nodeId);
      // The node's own devices, by name: `device add --node`, or those its births have claimed.
      acl = edgeNodeAcl(plantId, nodeId, (await listDevices(db, plantId, nodeId)).map((d) => d.deviceId));
    }
    const passwordLine = mosquittoPasswordEntry(user, password);
    ctx.result(
      [
        `Broker user ${user}; its password (shown once): ${password}`,
        "",
        "# password_file (one line per user):",
        passwordLine,
        "",
        "# acl_file:",
        ...acl,
      ].join("\n"),
      { user, password, passwordFile: passwordLine, acl },
    );
  },
};

export const ingestCommands: OpsCommand[] = [ingestStatus, deviceAdd, deviceList, mqttCredentials];
