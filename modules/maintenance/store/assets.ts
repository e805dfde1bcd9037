/** The assets of a plant: the asset list (with the shared asset filter) and the tag → id look-up task creation needs. */
import type { TPage } from "@/lib/contract/common";
import type { TAsset, TAssetsQuery } from "@/modules/maintenance/contract/maintenance";
import type { SqlDb } from "@/lib/platform/sql";
import { ASSET_REF_COLUMNS, assetFilterSql } from "./filters";
import type { Pager, Params } from "./page";

export interface AssetReads {
  listAssets(plantId: string, query: TAssetsQuery): Promise<TPage<TAsset>>;
  findAssetIdByTag(plantId: string, tagNumber: string): Promise<string | undefined>;
}

const ASSET_COLUMNS = `a.id, a.plant_id AS "plantId", ${ASSET_REF_COLUMNS}, a.name, a.asset_type AS "assetType", a.location,
  a.parent_tag_number AS "parentTagNumber", a.manufacturer, a.model, a.criticality`;

export function assetReads(engine: SqlDb, page: Pager): AssetReads {
  return {
    listAssets(plantId, query) {
      const params: Params = { plantId };
      const where = ["a.plant_id = @plantId", ...assetFilterSql(query, params)];
      return page({ table: "assets a" }, where, params, ASSET_COLUMNS, "a.tag_number", query, (rows) => rows as unknown as TAsset[]);
    },

    async findAssetIdByTag(plantId, tagNumber) {
      const row = await engine.get<{ id: string }>(`SELECT id FROM assets WHERE plant_id = @plantId AND tag_number = @tagNumber`, { plantId, tagNumber });
      return row?.id;
    },
  };
}
