/**
 * `npm test`'s browser check, before any stage runs: the browser tests need Chromium, and without
 * it they would fail minutes later with a Playwright launch error. Missing Chromium is installed
 * from Debian's packages when this process may (root with apt-get); otherwise the run stops at
 * once with one line saying what to run. `PLANTDESK_NO_INSTALL=1` forbids installing (a machine
 * where nothing may be installed, or a test of that path as root).
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { DEBIAN_CHROMIUM, chromiumPath, type Env } from "./chromium-path";

const PACKAGES = "chromium fonts-liberation";
/**
 * The layout tests measure text (a table fits 1440 px, a label on one line) in Liberation Sans, the
 * metric-compatible font Debian's chromium-with-fonts-liberation gives; with DejaVu alone every table
 * is wider. A Chromium installed without it is not ready.
 */
const LIBERATION_FONTS = "/usr/share/fonts/truetype/liberation";

export interface ChromiumFacts {
  path: string;
  executable: boolean;
  /** Liberation fonts present (only Debian's Chromium is checked for them). */
  fonts: boolean;
  root: boolean;
  aptGet: boolean;
  installForbidden: boolean;
}

type ChromiumPlan = { action: "ready" } | { action: "install" } | { action: "stop"; line: string };

/** What to do about the browser, from the facts alone (no side effects, so it is unit-tested). */
export function planChromium(facts: ChromiumFacts): ChromiumPlan {
  if (facts.executable && (facts.fonts || facts.path !== DEBIAN_CHROMIUM)) return { action: "ready" };
  const missing = facts.executable ? `The Liberation fonts the browser tests lay out text with are missing (${LIBERATION_FONTS})` : `Chromium for the browser tests is missing at ${facts.path}`;
  if (facts.path !== DEBIAN_CHROMIUM) {
    // Installing Debian's package would not put anything at a custom path.
    return {
      action: "stop",
      line: `${missing} (CHROMIUM_PATH): point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's ${DEBIAN_CHROMIUM}, then run npm test again.`,
    };
  }
  if (!facts.aptGet) {
    return { action: "stop", line: `${missing}: install Chromium with your package manager and set CHROMIUM_PATH to its binary, then run npm test again.` };
  }
  if (facts.root && !facts.installForbidden) return { action: "install" };
  const sudo = facts.root ? "" : "sudo ";
  return {
    action: "stop",
    line: `${missing}: run \`${sudo}apt-get update && ${sudo}apt-get install -y ${PACKAGES}\`, then npm test again.`,
  };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir !== "" && isExecutable(path.join(dir, command)));
}

export function readChromiumFacts(env: Env = process.env): ChromiumFacts {
  const file = chromiumPath(env);
  return {
    path: file,
    executable: isExecutable(file),
    fonts: existsSync(LIBERATION_FONTS),
    root: process.getuid?.() === 0,
    aptGet: onPath("apt-get"),
    installForbidden: env.PLANTDESK_NO_INSTALL === "1",
  };
}

/** Runs apt-get quietly; on failure returns its last line of complaint. */
function aptGet(args: string[]): string | null {
  const result = spawnSync("apt-get", args, {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (result.status === 0) return null;
  const complaint = (result.stderr ?? "").trim().split("\n").filter(Boolean).at(-1) ?? result.error?.message ?? "no message";
  return `apt-get ${args.join(" ")} failed (exit ${result.status ?? "none"}): ${complaint}`;
}

/**
 * Makes sure Chromium is there. Returns null when the browser tests can run, else the one line
 * that tells the user what to do.
 */
export function ensureChromium(env: Env = process.env): string | null {
  const facts = readChromiumFacts(env);
  const plan = planChromium(facts);
  if (plan.action === "ready") return null;
  if (plan.action === "stop") return plan.line;

  process.stdout.write(`${facts.executable ? "The Liberation fonts are" : `Chromium is`} missing: installing Debian's ${PACKAGES} with apt-get… `);
  const started = Date.now();
  const failure = aptGet(["update", "-qq"]) ?? aptGet(["install", "-y", "-qq", ...PACKAGES.split(" ")]);
  if (failure) {
    process.stdout.write("failed\n");
    return `${failure}. Run \`apt-get update && apt-get install -y ${PACKAGES}\` yourself, then npm test again.`;
  }
  if (!isExecutable(facts.path)) {
    process.stdout.write("failed\n");
    return `apt-get installed ${PACKAGES}, but ${facts.path} is still missing: set CHROMIUM_PATH to the Chromium binary, then run npm test again.`;
  }
  process.stdout.write(`done in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return null;
}
