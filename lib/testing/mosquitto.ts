/**
 * A Mosquitto broker of a test's own, on a free loopback port, with a configuration the test
 * writes (password file, ACL file, or none: anonymous). Tests that must not see other suites'
 * messages on the shared broker (Sparkplug topics are one namespace for everyone) or that check
 * the broker's authorisation start one. Without the `mosquitto` binary the suite is skipped with a
 * printed line, or fails with PLANTDESK_REQUIRE_SERVICES=1.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";
import { servicesRequired } from "./services";

export const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto", "/opt/homebrew/sbin/mosquitto"].find((p) => fs.existsSync(p)) ?? null;
const MOSQUITTO_PASSWD = ["/usr/bin/mosquitto_passwd", "/usr/local/bin/mosquitto_passwd", "/opt/homebrew/bin/mosquitto_passwd"].find((p) => fs.existsSync(p)) ?? null;

export interface OwnMosquitto {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL when `crash` (the broker's in-memory state is lost), SIGTERM otherwise. */
  stop(crash?: boolean): Promise<void>;
}

/** True when a broker can be started; false (with a printed line) when the suite should be skipped. */
export function mosquittoForTests(suite: string): boolean {
  if (MOSQUITTO && MOSQUITTO_PASSWD) return true;
  const message = `${suite}: no mosquitto binary (apt-get install mosquitto)`;
  if (servicesRequired()) throw new Error(`${message}; PLANTDESK_REQUIRE_SERVICES=1 requires it`);
  process.stderr.write(`skipped suite "${suite}": ${message}\n`);
  return false;
}


async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Password-file lines (`user:hash`) made by mosquitto_passwd itself. */
export function passwordFile(users: Record<string, string>, file: string): void {
  fs.writeFileSync(file, "");
  for (const [user, password] of Object.entries(users)) {
    const result = spawnSync(MOSQUITTO_PASSWD!, ["-b", file, user, password], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`mosquitto_passwd failed: ${result.stderr}`);
  }
}

/**
 * Starts a broker; `config` is appended to the listener line (e.g. `password_file …`, `acl_file …`,
 * `allow_anonymous false`). `port` reuses a stopped broker's port (its clients reconnect there).
 */
export async function startMosquitto(config = "allow_anonymous true", port?: number): Promise<OwnMosquitto> {
  if (!MOSQUITTO) throw new Error("no mosquitto binary");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mosquitto-"));
  const listen = port ?? (await freePort());
  const conf = path.join(dir, "mosquitto.conf");
  // `user`: run as the test's own user (as root Mosquitto would switch to `mosquitto`, which cannot read the temporary files).
  fs.writeFileSync(conf, `listener ${listen} 127.0.0.1\nuser ${os.userInfo().username}\npersistence false\nlog_dest stderr\nlog_type error\n${config}\n`);
  const child: ChildProcess = spawn(MOSQUITTO, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const deadline = Date.now() + 10_000;
  while (!(await answers(listen))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`mosquitto did not start on port ${listen}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${listen}`,
    port: listen,
    dir,
    async stop(crash = false) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill(crash ? "SIGKILL" : "SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
