/**
 * The maintenance-plans operations (docs/api.md, "Maintenance plans"): their domain functions and
 * their OpenAPI documentation, which endpoints.ts puts in the maintenance table beside the others.
 */
import { randomBytes } from "node:crypto";
import { ApiError, invalidInput, type FieldProblem, type ServiceErrorCode } from "@/lib/contract/errors";
import { ZMaintenancePlanInput, ZMaintenancePlansQuery, type TMaintenancePlanParsed } from "@/modules/maintenance/contract/maintenance-plans";
import { parseWith } from "@/lib/platform/http/body";
import { checkPathId, quoteId, type MaintenanceContext } from "./context";
import type { Operation } from "./operation";
import type { PlantRecord } from "@/modules/maintenance/store";
import { lookupProblems, writeSuccess } from "./writes";
import { evaluatePlan, planAnswer } from "./plan-evaluate";
import { checkMeterQuery } from "./plan-meter";

async function existingPlan(ctx: MaintenanceContext, plantId: string, params: Record<string, string>) {
  const planId = checkPathId(params.planId ?? "", "planId");
  const plan = await ctx.plans.getPlan(plantId, planId);
  if (!plan) throw new ApiError("PLAN_NOT_FOUND", `Maintenance plan ${quoteId(planId)} does not exist in plant ${quoteId(plantId)}.`);
  return plan;
}

/** The body checked as a task's would be (lookup values of the plant, the asset), and a meter's KQL compiled; the asset's id. */
async function checkedPlan(ctx: MaintenanceContext, plant: PlantRecord, body: unknown): Promise<{ plan: TMaintenancePlanParsed; assetId: string }> {
  const plan = parseWith(ZMaintenancePlanInput, body, "maintenance plan");
  const problems: FieldProblem[] = await lookupProblems(ctx, plant.id, [
    ["activityKind", plan.activityKind],
    ["assignedToRole", plan.assignedToRole],
    ["priority", plan.priority],
  ]);
  if (problems.length > 0) throw invalidInput(`Invalid maintenance plan: ${problems[0]!.field}: ${problems[0]!.problem}`, problems);
  if (plan.trigger.kind === "METER") checkMeterQuery(plan.trigger.query);
  const assetId = await ctx.store.findAssetIdByTag(plant.id, plan.assetTagNumber);
  if (!assetId) {
    throw new ApiError("ASSET_NOT_FOUND", `No asset with tag number ${quoteId(plan.assetTagNumber)} in plant ${plant.id}.`, [{ field: "assetTagNumber", problem: "unknown tag number" }]);
  }
  return { plan, assetId };
}

const newPlanId = () => `PM-${randomBytes(6).toString("hex")}`;

export const planOperations = {
  listMaintenancePlans: async (ctx, plant, { query }) => {
    const page = await ctx.plans.listPlans(plant.id, parseWith(ZMaintenancePlansQuery, query, "query parameters"));
    const today = ctx.today();
    return { value: { ...page, data: page.data.map((plan) => planAnswer(plan, today)) } };
  },
  getMaintenancePlan: async (ctx, plant, { params }) => ({ value: planAnswer(await existingPlan(ctx, plant.id, params), ctx.today()) }),
  createMaintenancePlan: async (ctx, plant, input) => {
    const { plan, assetId } = await checkedPlan(ctx, plant, input.body());
    const id = newPlanId();
    await ctx.plans.insertPlan(plant.id, id, plan, assetId, ctx.today(), ctx.now().toISOString());
    // The first evaluation reads the meter, opens what is already due and writes the planned jobs.
    await evaluatePlan(ctx, plant, (await ctx.plans.getPlan(plant.id, id))!, { saved: true });
    return { value: writeSuccess([planAnswer((await ctx.plans.getPlan(plant.id, id))!, ctx.today())]) };
  },
  updateMaintenancePlan: async (ctx, plant, input) => {
    const existing = await existingPlan(ctx, plant.id, input.params);
    const { plan, assetId } = await checkedPlan(ctx, plant, input.body());
    if (!(await ctx.plans.updatePlan(plant.id, existing.id, plan, assetId, ctx.now().toISOString()))) await existingPlan(ctx, plant.id, input.params);
    await evaluatePlan(ctx, plant, (await ctx.plans.getPlan(plant.id, existing.id))!, { saved: true });
    return { value: writeSuccess([planAnswer((await ctx.plans.getPlan(plant.id, existing.id))!, ctx.today())]) };
  },
  deleteMaintenancePlan: async (ctx, plant, { params }) => {
    const plan = await existingPlan(ctx, plant.id, params);
    await ctx.plans.deletePlan(plant.id, plan.id);
    return { value: writeSuccess([{ id: plan.id }]) };
  },
  runMaintenancePlan: async (ctx, plant, { params }) => ({ value: await evaluatePlan(ctx, plant, await existingPlan(ctx, plant.id, params)) }),
} satisfies Record<string, Operation>;

interface PlanDoc {
  summary: string;
  description: string;
  responseDescription: string;
  errors: ServiceErrorCode[];
}

const BODY_ERRORS: ServiceErrorCode[] = ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];
const SAVE =
  "Checked as a task's fields are: activityKind, assignedToRole and priority must be the plant's lookup values (400 with `allowedValues`), the asset must exist (412 ASSET_NOT_FOUND). A METER trigger's `query` is compiled at save (400 INVALID_QUERY with line and column; its first column must be a number). Saving evaluates the plan at once: a meter is read, an occurrence already within its lead time opens its task, and the plan's planned jobs (GET jobs-planned, `planId`) are written again. `data` is `[plan]`.";

export const PLAN_DOCS = {
  listMaintenancePlans: {
    summary: "Maintenance plans (extension)",
    description: "Ordered by id. Each plan carries `nextDueDate` (CALENDAR: its next occurrence not yet opened; METER: the forecast date of `nextDueReading` at the meter's recent rate `ratePerDay`), and for METER `lastReading`, `lastReadingAt` and `nextDueReading`.",
    responseDescription: "Paginated envelope of maintenance plans.",
    errors: [],
  },
  createMaintenancePlan: { summary: "Create a maintenance plan (extension)", description: SAVE, responseDescription: "Write result with `data: [plan]`.", errors: [...BODY_ERRORS, "INVALID_QUERY", "ASSET_NOT_FOUND"] },
  getMaintenancePlan: { summary: "One maintenance plan (extension)", description: "The plan itself, not an envelope.", responseDescription: "The plan.", errors: ["PLAN_NOT_FOUND"] },
  updateMaintenancePlan: {
    summary: "Replace a maintenance plan (extension)",
    description: `The whole plan, as at creation. ${SAVE} A changed meter query forgets the readings of the old one; occurrences already opened stay opened.`,
    responseDescription: "Write result with `data: [plan]`.",
    errors: [...BODY_ERRORS, "PLAN_NOT_FOUND", "INVALID_QUERY", "ASSET_NOT_FOUND"],
  },
  deleteMaintenancePlan: {
    summary: "Delete a maintenance plan (extension)",
    description: "Its planned jobs go with it; the tasks it opened stay. `data` is `[{ id }]`.",
    responseDescription: "Write result with `data: [{ id }]`.",
    errors: ["PLAN_NOT_FOUND"],
  },
  runMaintenancePlan: {
    summary: "Evaluate a maintenance plan now (extension)",
    description:
      "What the scheduler does every tick, for one plan: a CALENDAR occurrence within `leadTimeDays` of its due date, or a METER reading at or past `nextDueReading`, opens ONE task (status NEED_APPROVAL) with the plan's title, description, activityKind, assignedToRole, priority, asset, the occurrence's due date and the plan's checklist. Each occurrence opens once, whoever evaluates it (instances sharing a database included). FIXED plans go along the schedule; FLOATING ones open the next occurrence only after the close-out of the open one, counted from its doneDate (or the meter's reading then). A disabled plan opens nothing. `opened` lists the tasks this run opened.",
    responseDescription: "`{ opened, nextDueDate, nextDueReading }`.",
    errors: ["PLAN_NOT_FOUND"],
  },
} satisfies Record<keyof typeof planOperations, PlanDoc>;
