"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { MePlant } from "@/lib/client/me";
import { plantPath, sectionOf } from "./nav-items";

/** Parameters that mean the same in every plant and so survive a switch; the rest (asset, part…) do not. */
const PORTABLE_PARAMS = ["from", "to", "range"];

export function PlantSwitcher({ plants, plantId }: { plants: MePlant[]; plantId: string | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();

  function switchTo(nextId: string) {
    const kept = new URLSearchParams();
    for (const key of PORTABLE_PARAMS) {
      const value = params.get(key);
      if (value) kept.set(key, value);
    }
    const query = kept.toString();
    const section = plantId ? sectionOf(pathname) : "";
    router.push(`${plantPath(nextId, section)}${query ? `?${query}` : ""}`);
  }

  return (
    <label className="flex min-w-0 items-center gap-2 text-sm">
      <span className="hidden text-fg-muted sm:inline">Plant</span>
      <select
        value={plantId ?? ""}
        onChange={(event) => switchTo(event.target.value)}
        className="h-9 max-w-[14rem] min-w-0 truncate rounded-md border border-line bg-surface px-2 font-medium"
        aria-label="Plant"
      >
        {plantId === undefined ? <option value="">Choose a plant</option> : null}
        {plants.map((plant) => (
          <option key={plant.id} value={plant.id}>
            {plant.name} ({plant.id})
          </option>
        ))}
      </select>
    </label>
  );
}
