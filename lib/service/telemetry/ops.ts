/** Operator commands of the telemetry interface: customers and their OAuth clients. */
import { createTelemetryClients } from "./oauth/clients";
import { createMaintenanceStore } from "@/modules/maintenance/store";
import { OpsError, requireString, revokeCommand, table, type OpsCommand, type OpsContext } from "../../platform/ops/command";

const customersWithPlants = async (ctx: OpsContext) => createMaintenanceStore(await ctx.db()).listCustomers();
const clientsOf = async (ctx: OpsContext) =>
  createTelemetryClients(await ctx.db(), ctx.config.TELEMETRY_RESOURCE_ID, new Set((await customersWithPlants(ctx)).map((customer) => customer.id)));

const customers: OpsCommand = {
  name: "customers",
  usage: "[--json]",
  summary: "List the customers: id, name, plants and active telemetry clients.",
  async run(ctx) {
    const active = new Map<string, number>();
    for (const c of await (await clientsOf(ctx)).list()) if (!c.revokedAt) active.set(c.customerId, (active.get(c.customerId) ?? 0) + 1);
    const list = (await customersWithPlants(ctx)).map((c) => ({
      id: c.id,
      name: c.name,
      plantIds: c.plants.map((p) => p.id),
      activeClients: active.get(c.id) ?? 0,
    }));
    ctx.result(
      table(
        ["ID", "NAME", "PLANTS", "CLIENTS"],
        list.map((c) => [c.id, c.name, c.plantIds.join(", "), String(c.activeClients)]),
      ),
      list,
    );
  },
};

const clientCreate: OpsCommand = {
  name: "client create",
  usage: "--customer <customerId> [--json]",
  summary: "Create a telemetry OAuth client for a customer (secret shown once, stored as a hash).",
  options: { customer: { type: "string" } },
  async run(ctx, args) {
    const customerId = requireString(args, "customer");
    const known = (await customersWithPlants(ctx)).map((c) => c.id);
    if (!known.includes(customerId)) {
      throw new OpsError(`Unknown customer '${customerId}'. Known customers: ${known.join(", ") || "none"}.`);
    }
    const created = await (await clientsOf(ctx)).create(customerId);
    ctx.result(
      [
        `Created telemetry client for ${customerId}.`,
        "",
        `  client_id:     ${created.client_id}`,
        `  client_secret: ${created.client_secret}`,
        `  scope:         ${created.scope}`,
        "",
        "This is the only time the secret is shown; only its hash is stored.",
        `Token endpoint: POST <base_url>/oauth2/v2.0/token (grant_type=client_credentials). Revoke with: npm run ops -- client revoke ${created.client_id}`,
      ].join("\n"),
      created,
    );
  },
};

const clientList: OpsCommand = {
  name: "client list",
  usage: "[--json]",
  summary: "List telemetry clients (ids and state, never the secrets).",
  async run(ctx) {
    const list = (await (await clientsOf(ctx)).list()).map((c) => ({ ...c, state: c.revokedAt ? "revoked" : "active" }));
    ctx.result(
      table(
        ["CLIENT ID", "CUSTOMER", "LABEL", "STATE", "CREATED", "REVOKED"],
        list.map((c) => [c.clientId, c.customerId, c.label ?? "-", c.state, c.createdAt, c.revokedAt ?? "-"]),
      ),
      list,
    );
  },
};

const clientRevoke = revokeCommand({
  name: "client revoke",
  summary: "Revoke a telemetry client; its tokens stop working at once.",
  usageName: "client_id",
  idField: "client_id",
  what: "telemetry client",
  listCommand: "client list",
  revoke: async (ctx, id) => (await clientsOf(ctx)).revoke(id),
});

export const telemetryCommands: OpsCommand[] = [customers, clientCreate, clientList, clientRevoke];
