/**
 * Spare parts and their stock levels: the part list, one part, its history of counted levels, a
 * new count, and reorder settings. A part's row holds its current level; every count is also kept
 * as a history row (close-out.ts adds the rows of parts used). The current level only moves
 * forward in time, so of two counts committing in either order the newer one stays current.
 */
import type { TPage } from "@/lib/contract/common";
import type { TPart, TPartsQuery, TStockLevelEntry } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb } from "@/lib/platform/sql";
import type { PageRequest, Pager, Params, Row } from "./page";

export interface PartRecord extends TPart {
  reorderPoint: number;
}

export interface NewStockLevel {
  quantity: number;
  unit: string;
  remark: string | null;
  isShort: boolean;
  submittedAt: string;
  /** Who counted (extension); null when the caller did not say. */
  countedBy?: string | null;
}

export interface PartsAndStock {
  listParts(plantId: string, query: TPartsQuery): Promise<TPage<TPart>>;
  findPart(plantId: string, partId: string): Promise<PartRecord | undefined>;
  listStockLevels(plantId: string, partId: string, page: PageRequest): Promise<TPage<TStockLevelEntry>>;
  /** Keeps the submission as history and makes it the part's current level. */
  submitStockLevel(plantId: string, partId: string, level: NewStockLevel): Promise<void>;
  /**
   * Sets a part's reorder level and/or quantity; the shortage is decided again from the current
   * level and the new reorder level. The part's count (quantity, updatedAt) is not touched.
   */
  updatePartReorder(plantId: string, partId: string, changes: { reorderLevel?: number; reorderQuantity?: number | null }): Promise<{ isShort: boolean }>;
}

const PART_COLUMNS = `id, name, unit, quantity, is_short AS "isShort", remark, updated_at AS "updatedAt", reorder_point AS "reorderPoint",
  reorder_quantity AS "reorderQuantity"`;

const STOCK_LEVEL_COLUMNS = `part_id AS "partId", quantity, unit, remark, is_short AS "isShort", submitted_at AS "submittedAt", counted_by AS "countedBy"`;

function toPart(row: Row): PartRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    unit: row.unit as TPart["unit"],
    quantity: row.quantity as number,
    isShort: row.isShort === 1,
    remark: row.remark as string | null,
    updatedAt: row.updatedAt as string,
    reorderLevel: row.reorderPoint as number,
    reorderQuantity: row.reorderQuantity as number | null,
    reorderPoint: row.reorderPoint as number,
  };
}

export function partsAndStock(engine: SqlDb, page: Pager): PartsAndStock {
  return {
    listParts(plantId, query) {
      const params: Params = { plantId };
      const where = ["plant_id = @plantId"];
      if (query.isShort !== undefined) {
        where.push("is_short = @isShort");
        params.isShort = query.isShort === "true" ? 1 : 0;
      }
      return page({ table: "parts" }, where, params, PART_COLUMNS, "id", query, (rows) =>
        rows.map((row) => {
          const { reorderPoint: _, ...part } = toPart(row);
          return part;
        }),
      );
    },

    async findPart(plantId, partId) {
      const row = await engine.get(`SELECT ${PART_COLUMNS} FROM parts WHERE plant_id = @plantId AND id = @partId`, { plantId, partId });
      return row ? toPart(row) : undefined;
    },

    listStockLevels(plantId, partId, request) {
      return page(
        { table: "stock_levels" },
        ["plant_id = @plantId", "part_id = @partId"],
        { plantId, partId },
        STOCK_LEVEL_COLUMNS,
        "submitted_at DESC, seq DESC",
        request,
        (rows) => rows.map((row) => ({ ...(row as unknown as TStockLevelEntry), isShort: row.isShort === 1 })),
      );
    },

    async updatePartReorder(plantId, partId, changes) {
      const params = {
        plantId,
        partId,
        level: changes.reorderLevel ?? null,
        setQuantity: changes.reorderQuantity === undefined ? 0 : 1,
        quantity: changes.reorderQuantity ?? null,
      };
      return engine.transaction(async (tx) => {
        await tx.run(
          `UPDATE parts SET reorder_point = coalesce(@level, reorder_point),
                  reorder_quantity = CASE WHEN @setQuantity = 1 THEN @quantity ELSE reorder_quantity END,
                  is_short = CASE WHEN quantity < coalesce(@level, reorder_point) THEN 1 ELSE 0 END
           WHERE plant_id = @plantId AND id = @partId`,
          params,
        );
        const row = await tx.get<{ isShort: number | boolean }>(`SELECT is_short AS "isShort" FROM parts WHERE plant_id = @plantId AND id = @partId`, { plantId, partId });
        return { isShort: row?.isShort === 1 || row?.isShort === true };
      });
    },

    // The history row and the part's current level in one transaction; the current level only moves
    // forward in time, so of two submissions committing in either order the newer one stays current.
    async submitStockLevel(plantId, partId, level) {
      const params = {
        plantId,
        partId,
        quantity: level.quantity,
        unit: level.unit,
        remark: level.remark,
        isShort: level.isShort ? 1 : 0,
        submittedAt: level.submittedAt,
        countedBy: level.countedBy ?? null,
      };
      await engine.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO stock_levels (plant_id, part_id, quantity, unit, remark, is_short, submitted_at, counted_by)
           VALUES (@plantId, @partId, @quantity, @unit, @remark, @isShort, @submittedAt, @countedBy)`,
          params,
        );
        await tx.run(
          `UPDATE parts SET quantity = @quantity, is_short = @isShort, remark = @remark, updated_at = @submittedAt
           WHERE plant_id = @plantId AND id = @partId AND updated_at <= @submittedAt`,
          params,
        );
      });
    },
  };
}
