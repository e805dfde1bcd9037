/** Operator commands of the maintenance interface: plants and plant tokens. */
import { createPlantTokens } from "@/modules/maintenance/store/plant-tokens";
import { createMaintenanceStore } from "@/modules/maintenance/store";
import { OpsError, UsageError, requireString, revokeCommand, table, type OpsCommand } from "@/lib/platform/ops/command";

const plants: OpsCommand = {
  name: "plants",
  usage: "[--json]",
  summary: "List the plants: id, name, customer.",
  async run(ctx) {
    const list = await createMaintenanceStore(await ctx.db()).listPlants();
    ctx.result(
      table(["ID", "NAME", "CUSTOMER"], list.map((p) => [p.id, p.name, p.customerId])),
      list.map(({ id, name, customerId }) => ({ id, name, customerId })),
    );
  },
};

const tokenIssue: OpsCommand = {
  name: "token issue",
  usage: "--plant <plantId> [--expires <days>] [--json]",
  summary: "Issue a plant-scoped token for the maintenance interface (shown once, stored as a hash).",
  options: { plant: { type: "string" }, expires: { type: "string" } },
  async run(ctx, args) {
    const plantId = requireString(args, "plant");
    const expires = args.values.expires;
    let expiresInDays: number | undefined;
    if (expires !== undefined) {
      expiresInDays = Number(expires);
      if (typeof expires !== "string" || !/^\d+(\.\d+)?$/.test(expires) || !(expiresInDays > 0)) {
        throw new UsageError("--expires must be a positive number of days.");
      }
    }
    const store = createMaintenanceStore(await ctx.db());
    if (!(await store.findPlant(plantId))) {
      const known = (await store.listPlants()).map((p) => p.id).join(", ");
      throw new OpsError(`Unknown plant '${plantId}'. Known plants: ${known || "none"}.`);
    }
    const issued = await createPlantTokens(await ctx.db()).issue(plantId, { expiresInDays });
    ctx.result(
      [
        `Issued token ${issued.id} for plant ${plantId}${issued.expiresAt ? `, expires ${issued.expiresAt}` : ", no expiry"}.`,
        "",
        `  ${issued.token}`,
        "",
        "This is the only time the token is shown; only its hash is stored.",
        `Use it as: Authorization: Bearer <token>. Revoke with: npm run ops -- token revoke ${issued.id}`,
      ].join("\n"),
      issued,
    );
  },
};

const tokenList: OpsCommand = {
  name: "token list",
  usage: "[--json]",
  summary: "List plant tokens (ids and state, never the tokens).",
  async run(ctx) {
    const now = new Date().toISOString();
    const tokens = (await createPlantTokens(await ctx.db()).list()).map((t) => ({ ...t, state: t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "active" }));
    ctx.result(
      table(
        ["ID", "PLANT", "STATE", "CREATED", "EXPIRES", "REVOKED"],
        tokens.map((t) => [t.id, t.plantId, t.state, t.createdAt, t.expiresAt ?? "-", t.revokedAt ?? "-"]),
      ),
      tokens,
    );
  },
};

const tokenRevoke = revokeCommand({
  name: "token revoke",
  summary: "Revoke a plant token; requests with it get 401 at once.",
  usageName: "tokenId",
  idField: "id",
  what: "plant token",
  listCommand: "token list",
  revoke: async (ctx, id) => createPlantTokens(await ctx.db()).revoke(id),
});

export const maintenanceCommands: OpsCommand[] = [plants, tokenIssue, tokenList, tokenRevoke];
