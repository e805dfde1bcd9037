/** Operator commands of the maintenance interface: plants and plant tokens. */
import { createPlantTokens } from "../auth/plant-tokens";
import { createSqliteMaintenanceStore } from "../store/maintenance-store";
import { OpsError, UsageError, requireString, table, type OpsCommand } from "./command";

const plants: OpsCommand = {
  name: "plants",
  usage: "[--json]",
  summary: "List the plants: id, name, customer.",
  run(ctx) {
    const list = createSqliteMaintenanceStore(ctx.db()).listPlants();
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
  run(ctx, args) {
    const plantId = requireString(args, "plant");
    const expires = args.values.expires;
    let expiresInDays: number | undefined;
    if (expires !== undefined) {
      expiresInDays = Number(expires);
      if (typeof expires !== "string" || !/^\d+(\.\d+)?$/.test(expires) || !(expiresInDays > 0)) {
        throw new UsageError("--expires must be a positive number of days.");
      }
    }
    const store = createSqliteMaintenanceStore(ctx.db());
    if (!store.findPlant(plantId)) {
      const known = store.listPlants().map((p) => p.id).join(", ");
      throw new OpsError(`Unknown plant '${plantId}'. Known plants: ${known || "none"}.`);
    }
    const issued = createPlantTokens(ctx.db()).issue(plantId, { expiresInDays });
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
  run(ctx) {
    const now = new Date().toISOString();
    const tokens = createPlantTokens(ctx.db())
      .list()
      .map((t) => ({ ...t, state: t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "active" }));
    ctx.result(
      table(
        ["ID", "PLANT", "STATE", "CREATED", "EXPIRES", "REVOKED"],
        tokens.map((t) => [t.id, t.plantId, t.state, t.createdAt, t.expiresAt ?? "-", t.revokedAt ?? "-"]),
      ),
      tokens,
    );
  },
};

const tokenRevoke: OpsCommand = {
  name: "token revoke",
  usage: "<tokenId> [--json]",
  summary: "Revoke a plant token; requests with it get 401 at once.",
  positionals: 1,
  run(ctx, args) {
    const id = args.positionals[0];
    if (!id) throw new UsageError("The token id is required (see `token list`).");
    if (!createPlantTokens(ctx.db()).revoke(id)) throw new OpsError(`No plant token with id '${id}'.`);
    ctx.result(`Revoked ${id}.`, { id, revoked: true });
  },
};

export const maintenanceCommands: OpsCommand[] = [plants, tokenIssue, tokenList, tokenRevoke];
