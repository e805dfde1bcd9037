/**
 * Payloads of a plant's dashboards (docs/api.md, "Dashboards"): a board of panels, each a KQL query
 * with a chart type, a title and a unit; one time range and refresh interval for the whole board;
 * variables (a device, a data point, a free text) that the queries name as `$name` and that are
 * substituted as KQL string literals (lib/kql/variables.ts). Export/import is the definition in an
 * envelope that says what it is. No server-only import: the board's editor validates with these too.
 */
import { z } from "@/lib/contract/zod";
import { MAX_QUERY_LENGTH } from "@/lib/contract/telemetry";
import { ROLES } from "@/lib/contract/roles";
import { BOARD_RANGES, BOARD_REFRESH, BOARD_VISIBILITIES, DASHBOARD_EXPORT_FORMAT, DASHBOARD_LIMITS, PANEL_CHARTS, VARIABLE_KINDS, VARIABLE_NAME } from "@/lib/contract/dashboard-vocabulary";

export * from "@/lib/contract/dashboard-vocabulary";


const PANEL_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

const title = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

const ZDashboardVariable = z
  .strictObject({
    name: z.string().regex(VARIABLE_NAME, "must be a letter, then up to 31 letters, digits or '_' (used as $name)"),
    label: title(60),
    kind: z.enum(VARIABLE_KINDS),
    /** The value when the URL names none; null: the first device or data point of the plant. */
    default: z.string().max(DASHBOARD_LIMITS.maxValueLength).nullable(),
  })
  .meta({ id: "DashboardVariable" });

const ZDashboardPanel = z
  .strictObject({
    id: z.string().regex(PANEL_ID, "must be 1–40 lower-case letters, digits or '-'"),
    title: title(120),
    query: z
      .string({ error: "is required" })
      .refine((text) => text.trim().length > 0, "must not be empty")
      .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
    chart: z.enum(PANEL_CHARTS),
    /** Shown beside the values (axis, stat); "" for none. */
    unit: z.string().trim().max(24, "must be at most 24 characters"),
    width: z.enum(["half", "full"]),
  })
  .meta({ id: "DashboardPanel" });

/** What a user edits, exports and imports: everything but who and when. */
export const ZDashboardDefinition = z
  .strictObject({
    title: title(120),
    description: z.string().trim().max(500, "must be at most 500 characters"),
    range: z.enum(BOARD_RANGES),
    refresh: z.enum(BOARD_REFRESH),
    variables: z.array(ZDashboardVariable).max(DASHBOARD_LIMITS.maxVariables, `at most ${DASHBOARD_LIMITS.maxVariables} variables`),
    panels: z.array(ZDashboardPanel).max(DASHBOARD_LIMITS.maxPanels, `at most ${DASHBOARD_LIMITS.maxPanels} panels`),
  })
  .superRefine((value, ctx) => {
    const names = new Set<string>();
    value.variables.forEach((variable, index) => {
      if (names.has(variable.name)) ctx.addIssue({ code: "custom", path: ["variables", index, "name"], message: `$${variable.name} is named twice` });
      names.add(variable.name);
    });
    const ids = new Set<string>();
    value.panels.forEach((panel, index) => {
      if (ids.has(panel.id)) ctx.addIssue({ code: "custom", path: ["panels", index, "id"], message: `panel id ${panel.id} is used twice` });
      ids.add(panel.id);
    });
  })
  .meta({ id: "DashboardDefinition" });

/**
 * Who sees a board (docs/boards.md): `private` its owner only; `role` its owner, the plant's users
 * of `role` and admins; `plant` everyone who may open the plant. `role` is named only for `role`.
 */
export const ZBoardSharing = z
  .strictObject({
    visibility: z.enum(BOARD_VISIBILITIES),
    role: z.enum(ROLES).nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.visibility === "role" && value.role === null) ctx.addIssue({ code: "custom", path: ["role"], message: "name the role the board is shared with" });
    if (value.visibility !== "role" && value.role !== null) ctx.addIssue({ code: "custom", path: ["role"], message: "only a board shared with a role names one" });
  })
  .meta({ id: "BoardSharing" });

/** Body of PUT …/dashboards/{id}/placement: the board's folder (null: none) and who sees it. */
export const ZBoardPlacement = z
  .strictObject({
    folderId: z.number().int().positive().nullable(),
    sharing: ZBoardSharing,
  })
  .meta({ id: "BoardPlacement" });

/** Where a board is and who may do what with it, as the signed-in user sees it. */
const placementFields = {
  folderId: z.number().int().nullable(),
  sharing: ZBoardSharing,
  /** Who owns the board: they and admins change it, everyone else who sees it reads it. */
  owner: z.string(),
  /** Whether the signed-in user may change, move or delete it. */
  canEdit: z.boolean(),
};

const folderName = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");

/** Body of POST …/dashboard-folders and PUT …/dashboard-folders/{id}. */
export const ZBoardFolderBody = z.strictObject({ name: folderName }).meta({ id: "BoardFolderBody" });

const ZBoardFolder = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "BoardFolder" });

export const ZDashboard = z
  .object({
    id: z.number().int(),
    plantId: z.string(),
    ...placementFields,
    /** Goes up by one with every save; PUT and DELETE name it in `If-Match` (also the ETag). */
    version: z.number().int(),
    definition: ZDashboardDefinition,
    createdBy: z.string(),
    createdAt: z.string(),
    updatedBy: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Dashboard" });

const ZDashboardSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  panelCount: z.number().int(),
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  ...placementFields,
});

/** The boards the user sees, by title, and the plant's folders, by name. */
export const ZDashboardList = z.object({ data: z.array(ZDashboardSummary), folders: z.array(ZBoardFolder) });

/** A dashboard as a file: GET …/dashboards/{id}/export, POST …/dashboards/import. */
export const ZDashboardExport = z
  .strictObject({
    format: z.literal(DASHBOARD_EXPORT_FORMAT, { error: `must be "${DASHBOARD_EXPORT_FORMAT}"` }),
    formatVersion: z.literal(1, { error: "must be 1" }),
    exportedAt: z.string().max(40).optional(),
    dashboard: ZDashboardDefinition,
    /** The folder's name when exported (an import puts the board in the folder of that name, made if missing); absent or null: none. */
    folder: folderName.nullable().optional(),
    /** Who saw it when exported; absent: the whole plant (files from before folders and sharing). */
    sharing: ZBoardSharing.optional(),
  })
  .meta({ id: "DashboardExport" });

export type TDashboardVariable = z.output<typeof ZDashboardVariable>;
export type TDashboardPanel = z.output<typeof ZDashboardPanel>;
export type TDashboardDefinition = z.output<typeof ZDashboardDefinition>;
export type TDashboard = z.infer<typeof ZDashboard>;
export type TDashboardSummary = z.infer<typeof ZDashboardSummary>;
export type TDashboardExport = z.output<typeof ZDashboardExport>;
export type TBoardSharing = z.output<typeof ZBoardSharing>;
export type TBoardPlacement = z.output<typeof ZBoardPlacement>;
export type TBoardFolder = z.infer<typeof ZBoardFolder>;
export type TDashboardList = z.infer<typeof ZDashboardList>;
