/**
 * Broker authorisation as deployed: `npm run ops -- mqtt credentials` prints a password-file entry
 * and ACL lines, a Mosquitto of the test's own runs with exactly those (plus the service's user,
 * added with mosquitto_passwd), and the broker itself refuses what the ACL does not allow: an edge
 * node publishing as another node, for another plant or for a device it does not own (issue 35 #1:
 * the ACL names the node's own devices), a wrong password. What it allows reaches
 * the service's user, and the node can read its commands and the host's STATE.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mosquittoForTests, passwordFile, startMosquitto, type OwnMosquitto } from "@/lib/testing/mosquitto";
import { mosquittoPasswordEntry } from "./broker-auth";

const available = mosquittoForTests("MQTT broker authorisation");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "broker-auth-"));
let broker: OwnMosquitto;
let node: { user: string; password: string; passwordFile: string; acl: string[] };

function ops(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/ops.ts", ...args, "--json"], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, json: result.status === 0 ? JSON.parse(result.stdout) : null, stderr: result.stderr };
}

describe.skipIf(!available)("mqtt credentials and a Mosquitto configured with them", () => {
  beforeAll(async () => {
    const added = ops("device", "add", "--plant", "RTM1", "--node", "EDGE1", "PUMP-1");
    expect(added.status, added.stderr).toBe(0);
    expect(added.json).toMatchObject({ deviceId: "PUMP-1", edgeNodeId: "EDGE1", added: true });
    const listed = ops("device", "list", "--plant", "RTM1");
    expect(listed.json.find((d: { deviceId: string }) => d.deviceId === "PUMP-1")).toMatchObject({ edgeNodeId: "EDGE1", claimedBy: "ops" });
    // A second node takes the device over only by the operator's word; its ACL then names it, EDGE1's no longer.
    expect(ops("device", "add", "--plant", "RTM1", "--node", "EDGE9", "PUMP-1").json).toMatchObject({ edgeNodeId: "EDGE9", previousEdgeNodeId: "EDGE1" });
    expect(ops("mqtt", "credentials", "--plant", "RTM1", "--node", "EDGE9").json.acl).toContain("topic write spBv1.0/RTM1/DDATA/EDGE9/PUMP-1");
    expect(ops("device", "add", "--plant", "RTM1", "--node", "EDGE1", "PUMP-1").json).toMatchObject({ edgeNodeId: "EDGE1", previousEdgeNodeId: "EDGE9" });
    const printed = ops("mqtt", "credentials", "--plant", "RTM1", "--node", "EDGE1");
    expect(printed.status, printed.stderr).toBe(0);
    node = printed.json;
    const host = ops("mqtt", "credentials", "--host", "plantdesk", "--password", "host-password-123");
    expect(host.status, host.stderr).toBe(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "broker-auth-conf-"));
    // The service's user as mosquitto_passwd writes it, the node's line as the command printed it.
    passwordFile({ plantdesk: "host-password-123" }, path.join(dir, "passwd"));
    fs.appendFileSync(path.join(dir, "passwd"), `${node.passwordFile}\n`);
    fs.writeFileSync(path.join(dir, "acl"), [...node.acl, "", ...host.json.acl, ""].join("\n"));
    broker = await startMosquitto(`allow_anonymous false\npassword_file ${dir}/passwd\nacl_file ${dir}/acl`);
  }, 240_000);

  afterAll(async () => {
    await broker?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints a password-file line and ACL lines limiting the node to its own namespace", () => {
    expect(node.user).toBe("RTM1/EDGE1");
    expect(node.passwordFile).toMatch(/^RTM1\/EDGE1:\$7\$\d+\$[A-Za-z0-9+/=]{16}\$[A-Za-z0-9+/=]{88}$/);
    expect(node.passwordFile).not.toContain(node.password);
    expect(node.acl).toEqual([
      "user RTM1/EDGE1",
      "topic write spBv1.0/RTM1/NBIRTH/EDGE1",
      "topic write spBv1.0/RTM1/NDATA/EDGE1",
      "topic write spBv1.0/RTM1/NDEATH/EDGE1",
      "topic write spBv1.0/RTM1/DBIRTH/EDGE1/PUMP-1",
      "topic write spBv1.0/RTM1/DDATA/EDGE1/PUMP-1",
      "topic write spBv1.0/RTM1/DDEATH/EDGE1/PUMP-1",
      "topic read spBv1.0/RTM1/NCMD/EDGE1/#",
      "topic read spBv1.0/RTM1/DCMD/EDGE1/#",
      "topic read spBv1.0/STATE/+",
    ]);
    // The same password gives another line (a fresh salt each time).
    expect(mosquittoPasswordEntry("u", "p")).not.toBe(mosquittoPasswordEntry("u", "p"));
    expect(ops("mqtt", "credentials", "--plant", "NOPE", "--node", "EDGE1").status).toBe(1);
    expect(ops("mqtt", "credentials", "--plant", "RTM1", "--node", "EDGE/1").status).toBe(2);
  });

  it("lets the node publish its own messages and read its commands; the broker refuses a foreign node, a device it does not own, another plant, a fake STATE, reading others' messages and a wrong password", async () => {
    const host = await mqtt.connectAsync(broker.url, { username: "plantdesk", password: "host-password-123", clientId: "host", protocolVersion: 5 });
    const edge = await mqtt.connectAsync(broker.url, { username: node.user, password: node.password, clientId: "edge1", protocolVersion: 5 });
    const heard: string[] = [];
    host.on("message", (topic) => heard.push(topic));
    await host.subscribeAsync("spBv1.0/#", { qos: 1 });
    const edgeHeard: string[] = [];
    edge.on("message", (topic) => edgeHeard.push(topic));
    // Mosquitto grants any subscription and filters what it delivers by the ACL: another node's commands never arrive.
    await edge.subscribeAsync(["spBv1.0/RTM1/NCMD/EDGE1/#", "spBv1.0/STATE/+", "spBv1.0/RTM1/NCMD/EDGE2/#", "spBv1.0/RTM1/DDATA/#"], { qos: 1 });

    await edge.publishAsync("spBv1.0/RTM1/DDATA/EDGE1/PUMP-1", "own", { qos: 1 });
    await edge.publishAsync("spBv1.0/RTM1/NDATA/EDGE1", "own node", { qos: 1 });
    await expect(edge.publishAsync("spBv1.0/RTM1/DDATA/EDGE2/PUMP-1", "foreign node", { qos: 1 })).rejects.toThrow(/authori[sz]ed/i);
    await expect(edge.publishAsync("spBv1.0/RTM1/DBIRTH/EDGE1/RTM1-DEV-001", "a device it does not own", { qos: 1 })).rejects.toThrow(/authori[sz]ed/i);
    await expect(edge.publishAsync("spBv1.0/HOU1/DDATA/EDGE1/PUMP-1", "another plant", { qos: 1 })).rejects.toThrow(/authori[sz]ed/i);
    await expect(edge.publishAsync("spBv1.0/STATE/plantdesk", "fake host", { qos: 1 })).rejects.toThrow(/authori[sz]ed/i);
    await host.publishAsync("spBv1.0/RTM1/NCMD/EDGE1", "rebirth", { qos: 1 });
    await host.publishAsync("spBv1.0/RTM1/NCMD/EDGE2", "rebirth", { qos: 1 });
    await host.publishAsync("spBv1.0/STATE/plantdesk", '{"online":true}', { qos: 1, retain: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.filter((t) => t.includes("DDATA"))).toEqual(["spBv1.0/RTM1/DDATA/EDGE1/PUMP-1"]);
    expect(edgeHeard.sort()).toEqual(["spBv1.0/RTM1/NCMD/EDGE1", "spBv1.0/STATE/plantdesk"]);

    await expect(mqtt.connectAsync(broker.url, { username: node.user, password: "wrong-password", clientId: "intruder", reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad username or password/i);
    await expect(mqtt.connectAsync(broker.url, { clientId: "anonymous", reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad username or password/i);
    await edge.endAsync();
    await host.endAsync();
  }, 60_000);
});
