import { valueText } from "@/modules/monitors/contract/template";

/** A firing's key as `Column value` pairs. */
export function FiringKey({ value }: { value: Record<string, unknown> }) {
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-0.5 break-words">
      {Object.entries(value).map(([name, item]) => (
        <span key={name} className="whitespace-nowrap">
          <span className="text-fg-muted">{name}</span> <span className="font-medium">{valueText(item)}</span>
        </span>
      ))}
    </span>
  );
}
