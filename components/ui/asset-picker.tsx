"use client";

import { useMemo } from "react";
import { Combobox } from "@/components/ui/combobox";
import { useAssets } from "@/modules/maintenance/client/maintenance";

/** Picks one of the plant's assets by tag, name, serial number or external reference. */
export function AssetPicker({
  plantId,
  value,
  onChange,
  label = "Asset",
  error,
  hint,
  placeholder = "Tag, name, serial…",
}: {
  plantId: string;
  value: string;
  onChange: (tagNumber: string) => void;
  label?: string;
  error?: string;
  hint?: string;
  placeholder?: string;
}) {
  const assets = useAssets(plantId);
  const options = useMemo(
    () =>
      (assets.data ?? []).map((asset) => ({
        value: asset.tagNumber,
        label: `${asset.tagNumber} — ${asset.name}`,
        detail: [asset.assetType, asset.location, asset.serialNumber && `S/N ${asset.serialNumber}`, asset.externalReference && `Ext ${asset.externalReference}`]
          .filter(Boolean)
          .join(" · "),
      })),
    [assets.data],
  );
  return (
    <Combobox
      label={label}
      options={options}
      value={value}
      onChange={onChange}
      isLoading={assets.isPending}
      error={error ?? (assets.error ? "Assets could not be loaded." : undefined)}
      hint={hint}
      placeholder={placeholder}
    />
  );
}
