/**
 * Operator commands for the dashboard's users: `user add`, `user invite`, `user list`,
 * `user disable`, `user enable`, `user sign-out` — the admin page's rules, from the same
 * implementation (user-admin.ts). The password is read from stdin (never an argument: those end up in shell
 * history and process lists) and stored only as a scrypt hash (lib/dashboard-store/passwords.ts).
 */
import { OpsError, UsageError, requireString, table, type OpsCommand, type OpsContext } from "@/lib/platform/ops/command";
import { ROLES, isRole } from "@/lib/contract/roles";
import { createMaintenanceStore } from "@/modules/maintenance/store";
import { invitationUrl } from "./invitations";
import { addUser, CLI_ACTOR, endUserSessions, inviteUser, setUserEnabled, UserAdminError, type UserAdminContext } from "./user-admin";
import { findUser, formatPlantScope, listUsers, parsePlantScope, type DashboardUser } from "./users";

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
  return { email: user.email, name: user.name, role: user.role, plants: user.plants, disabled: user.disabled, hasPassword: user.hasPassword, createdAt: user.createdAt, lastSignInAt: user.lastSignInAt };
}

async function adminContext(ctx: OpsContext): Promise<UserAdminContext> {
  return { db: await ctx.dashboardDb(), actor: CLI_ACTOR, servedPlants: await servedPlantIds(ctx) };
}

/** The rules' refusals as the CLI reports them: bad input exits 2, a missing user 1. */
function asOpsError(error: unknown): never {
  if (error instanceof UserAdminError) throw error.problem === "invalid" ? new UsageError(error.message) : new OpsError(error.message);
  throw error;
}

async function userIdOf(ctx: OpsContext, email: string): Promise<number> {
  const user = await findUser(await ctx.dashboardDb(), email);
  if (!user) throw new OpsError(`No user ${email} (see \`user list\`).`);
  return user.id;
}

const invitationLine = (ctx: OpsContext, invitation: { token: string; expiresAt: string }) =>
  `Invitation link (shown once, valid until ${invitation.expiresAt}): ${invitationUrl(ctx.config.publicUrl, invitation.token)}`;

const userAdd: OpsCommand = {
  name: "user add",
  usage: "--email <e> --role <planner|supervisor|engineer|admin> --plants <p1,p2|*> [--name <name>] [--password-stdin] [--json]",
  summary: "Add a dashboard user (or update one). With --password-stdin the password is read from stdin; without, an invitation link is printed (shown once).",
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
    const password = args.values["password-stdin"] === true ? await readPassword() : undefined;
    const name = typeof args.values.name === "string" ? args.values.name : undefined;
    try {
      const { user, existed, invitation } = await addUser(await adminContext(ctx), { email, name, role, plants, password }, { replace: true, invite: password === undefined });
      ctx.result(
        `${existed ? "Updated" : "Added"} ${user.email} (${user.role}, plants ${formatPlantScope(user.plants)}).${invitation ? `\n${invitationLine(ctx, invitation)}` : ""}`,
        { ...publicView(user), ...(invitation ? { invitationUrl: invitationUrl(ctx.config.publicUrl, invitation.token), invitationExpiresAt: invitation.expiresAt } : {}) },
      );
    } catch (error) {
      asOpsError(error);
    }
  },
};

const userInvite: OpsCommand = {
  name: "user invite",
  usage: "<email> [--json]",
  summary: "A new invitation link for a user (shown once; the previous one stops working): set a password, or connect a single sign-on account.",
  positionals: 1,
  async run(ctx, args) {
    const email = args.positionals[0];
    if (!email) throw new UsageError("The user's e-mail is required.");
    try {
      const invitation = await inviteUser(await adminContext(ctx), await userIdOf(ctx, email));
      ctx.result(invitationLine(ctx, invitation), { invitationUrl: invitationUrl(ctx.config.publicUrl, invitation.token), invitationExpiresAt: invitation.expiresAt });
    } catch (error) {
      asOpsError(error);
    }
  },
};

const userList: OpsCommand = {
  name: "user list",
  usage: "[--json]",
  summary: "List dashboard users: e-mail, role, plants, state, last sign-in (never passwords).",
  async run(ctx) {
    const users = await listUsers(await ctx.dashboardDb());
    ctx.result(
      table(
        ["EMAIL", "NAME", "ROLE", "PLANTS", "STATE", "PASSWORD", "LAST SIGN-IN"],
        users.map((u) => [u.email, u.name, u.role, formatPlantScope(u.plants) || "(waiting for access)", u.disabled ? "disabled" : "active", u.hasPassword ? "set" : "-", u.lastSignInAt ?? "-"]),
      ),
      users.map(publicView),
    );
  },
};

function toggle(name: string, enabled: boolean): OpsCommand {
  return {
    name,
    usage: "<email> [--json]",
    summary: enabled ? "Enable a disabled user again." : "Disable a user: their sessions end at once.",
    positionals: 1,
    async run(ctx, args) {
      const email = args.positionals[0];
      if (!email) throw new UsageError("The user's e-mail is required.");
      try {
        const user = await setUserEnabled(await adminContext(ctx), await userIdOf(ctx, email), enabled);
        ctx.result(`${enabled ? "Enabled" : "Disabled"} ${user.email}.`, publicView(user));
      } catch (error) {
        asOpsError(error);
      }
    },
  };
}

const userSignOut: OpsCommand = {
  name: "user sign-out",
  usage: "<email> [--json]",
  summary: "End every session of a user (they must sign in again).",
  positionals: 1,
  async run(ctx, args) {
    const email = args.positionals[0];
    if (!email) throw new UsageError("The user's e-mail is required.");
    try {
      const ended = await endUserSessions(await adminContext(ctx), await userIdOf(ctx, email));
      ctx.result(`Ended ${ended} session${ended === 1 ? "" : "s"} of ${email}.`, { ended });
    } catch (error) {
      asOpsError(error);
    }
  },
};

export const userCommands: OpsCommand[] = [userAdd, userInvite, userList, toggle("user disable", false), toggle("user enable", true), userSignOut];
