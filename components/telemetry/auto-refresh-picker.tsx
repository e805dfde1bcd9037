"use client";
/** Off / 10 s / 1 min, as in Grafana; shown only for ranges that end "now". */
import { useId } from "react";
import { controlClasses } from "@/components/ui/field";
import { REFRESH_INTERVALS, type RefreshInterval } from "./live-refresh";

export function AutoRefreshPicker({ value, onChange }: { value: RefreshInterval | null; onChange: (value: RefreshInterval | null) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Auto-refresh
      </label>
      <select
        id={id}
        className={`${controlClasses} w-28`}
        value={value ?? "off"}
        onChange={(event) => onChange(event.target.value === "off" ? null : (event.target.value as RefreshInterval))}
      >
        <option value="off">Off</option>
        {Object.entries(REFRESH_INTERVALS).map(([key, { label }]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
