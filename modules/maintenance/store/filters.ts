/**
 * What the lists share: the asset columns, join and filter of every list over assets (jobs done,
 * planned jobs, tasks, assets) and the date range of the job lists. An asset filter's conditions
 * start with `a.`: that is how the pager (page.ts) knows its count needs the asset join.
 */
import type { TAssetFilter } from "@/modules/maintenance/contract/maintenance";
import type { Params, Row } from "./page";

// Aliases are quoted: PostgreSQL folds unquoted ones to lower case.
export const ASSET_REF_COLUMNS = `a.tag_number AS "tagNumber", a.serial_number AS "serialNumber", a.external_reference AS "externalReference"`;

export const ASSET_JOIN = (alias: string) => `JOIN assets a ON a.id = ${alias}.asset_id`;

/**
 * The asset and every asset below it (`parentTagNumber` chains), as ids; `@plantId` must be set.
 * The anchor reads the column, not the parameter, so both engines type the recursion alike.
 */
const ASSET_AND_COMPONENTS = `a.id IN (
  WITH RECURSIVE below (tag) AS (
    SELECT tag_number FROM assets WHERE plant_id = @plantId AND tag_number = @assetTagNumber
    UNION SELECT c.tag_number FROM assets c JOIN below ON c.parent_tag_number = below.tag WHERE c.plant_id = @plantId
  )
  SELECT x.id FROM assets x JOIN below ON x.tag_number = below.tag WHERE x.plant_id = @plantId)`;

export function assetFilterSql(filter: TAssetFilter, params: Params): string[] {
  const where: string[] = [];
  if (filter.assetTagNumber !== undefined) {
    where.push(filter.includeComponents === "true" ? ASSET_AND_COMPONENTS : "a.tag_number = @assetTagNumber");
    params.assetTagNumber = filter.assetTagNumber;
  }
  if (filter.assetSerialNumber !== undefined) {
    where.push("a.serial_number = @assetSerialNumber");
    params.assetSerialNumber = filter.assetSerialNumber;
  }
  if (filter.assetExternalReference !== undefined) {
    where.push("a.external_reference = @assetExternalReference");
    params.assetExternalReference = filter.assetExternalReference;
  }
  return where;
}

export function dateRangeSql(column: string, query: { startDate?: string; endDate?: string }, params: Params): string[] {
  const where: string[] = [];
  if (query.startDate !== undefined) {
    where.push(`${column} >= @startDate`);
    params.startDate = query.startDate;
  }
  if (query.endDate !== undefined) {
    where.push(`${column} <= @endDate`);
    params.endDate = query.endDate;
  }
  return where;
}

export function assetRef(row: Row) {
  return {
    tagNumber: row.tagNumber as string,
    serialNumber: row.serialNumber as string | null,
    externalReference: row.externalReference as string | null,
  };
}
