/**
 * Operator commands for the dashboard's users: `user add`, `user list`, `user disable`,
 * `user enable`. The password is read from stdin (never an argument: those end up in shell
 * history and process lists) and stored only as a scrypt hash (lib/dashboard/passwords.ts).
 */
import { OpsError, UsageError, requireString, table, type OpsCommand, type OpsContext } from "@/lib/service/platform/ops/command";
import { ROLES, isRole } from "@/lib/auth/roles";
import { createMaintenanceStore } from "@/lib/service/database";
import { UserInputError, findUser, formatPlantScope, listUsers, parsePlantScope, setUserDisabled, upsertUser, type DashboardUser } from "./users";

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("Password (end with Enter, then Ctrl-D): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One line: the trailing newline of `echo` or a here-string is not part of the password.
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/** The plants the dashboard can serve: the remote service's configured ones, or the embedded service's. */
async function servedPlantIds(ctx: OpsContext): Promise<string[]> {
  const upstream = ctx.config.dashboard.upstream;
  if (upstream.mode === "remote") return upstream.plants.map((plant) => plant.id);
  return (await createMaintenanceStore(await ctx.db()).listPlants()).map((plant) => plant.id);
}

function publicView(user: DashboardUser) {
  return { email: user.email, name: user.name, role: user.role, plants: user.plants, disabled: user.disabled, hasPassword: user.hasPassword, createdAt: user.createdAt };
}

const userAdd: OpsCommand = {
  name: "user add",
  usage: "--email <e> --role <planner|supervisor|engineer|admin> --plants <p1,p2|*> [--name <name>] [--password-stdin] [--json]",
  summary: "Add a dashboard user (or update one); the password is read from stdin. Without one, the user signs in with Entra ID only.",
  options: { email: { type: "string" }, role: { type: "string" }, plants: { type: "string" }, name: { type: "string" }, "password-stdin": { type: "boolean" } },
  async run(ctx, args) {
    const email = requireString(args, "email");
    const role = requireString(args, "role");
    if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}.`);
    let plants;
    try {
      plants = parsePlantScope(requireString(args, "plants"));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--plants: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (plants !== "*") {
      const served = await servedPlantIds(ctx);
      const unknown = plants.filter((id) => !served.includes(id));
      if (unknown.length > 0) throw new OpsError(`Unknown plant(s) ${unknown.join(", ")}. Known plants: ${served.join(", ") || "none"}.`);
    }
    const password = args.values["password-stdin"] === true ? await readPassword() : undefined;
    const name = typeof args.values.name === "string" ? args.values.name : undefined;
    let user: DashboardUser;
    try {
      const db = await ctx.dashboardDb();
      const existed = (await findUser(db, email)) !== null;
      user = await upsertUser(db, { email, name, role, plants, password });
      ctx.result(
        `${existed ? "Updated" : "Added"} ${user.email} (${user.role}, plants ${formatPlantScope(user.plants)})${user.hasPassword ? "" : " — no password: Entra ID sign-in only"}.`,
        publicView(user),
      );
    } catch (error) {
      if (error instanceof UserInputError) throw new UsageError(error.message);
      throw error;
    }
  },
};

const userList: OpsCommand = {
  name: "user list",
  usage: "[--json]",
  summary: "List dashboard users: e-mail, role, plants, state (never passwords).",
  async run(ctx) {
    const users = await listUsers(await ctx.dashboardDb());
    ctx.result(
      table(
        ["EMAIL", "NAME", "ROLE", "PLANTS", "STATE", "PASSWORD"],
        users.map((u) => [u.email, u.name, u.role, formatPlantScope(u.plants), u.disabled ? "disabled" : "active", u.hasPassword ? "set" : "-"]),
      ),
      users.map(publicView),
    );
  },
};

function toggle(name: string, disabled: boolean): OpsCommand {
  return {
    name,
    usage: "<email> [--json]",
    summary: disabled ? "Disable a user: their session stops working at the next request." : "Enable a disabled user again.",
    positionals: 1,
    async run(ctx, args) {
      const email = args.positionals[0];
      if (!email) throw new UsageError("The user's e-mail is required.");
      const db = await ctx.dashboardDb();
      if (!(await setUserDisabled(db, email, disabled))) throw new OpsError(`No user ${email} (see \`user list\`).`);
      const user = (await findUser(db, email))!;
      ctx.result(`${disabled ? "Disabled" : "Enabled"} ${user.email}.`, publicView(user));
    },
  };
}

export const userCommands: OpsCommand[] = [userAdd, userList, toggle("user disable", true), toggle("user enable", false)];
