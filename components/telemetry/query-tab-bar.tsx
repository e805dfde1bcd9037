"use client";
/**
 * The row of query tabs above the editor: choose one, close one, open a new one. Plain buttons in
 * a list (the close button cannot sit inside a WAI-ARIA tab), the open tab marked `aria-current`.
 */
import { cn } from "@/components/ui/cn";
import { tabTitle, type QueryTab } from "./query-tabs";

export function QueryTabBar({
  tabs,
  active,
  onSelect,
  onAdd,
  onClose,
}: {
  tabs: QueryTab[];
  active: string;
  onSelect: (id: string) => void;
  onAdd: () => void;
  onClose: (id: string) => void;
}) {
  if (tabs.length === 0) return null;
  return (
    <nav aria-label="Query tabs" className="-mb-1 overflow-x-auto">
      <ul className="flex items-end gap-1 border-b border-line" data-testid="query-tabs">
        {tabs.map((tab, index) => {
          const title = tabTitle(tab, index);
          const current = tab.id === active;
          return (
            <li
              key={tab.id}
              className={cn("flex max-w-60 items-center rounded-t-md border border-b-0 text-sm", current ? "border-line bg-surface font-medium" : "border-transparent text-fg-muted hover:bg-surface-2")}
            >
              <button type="button" aria-current={current ? "page" : undefined} onClick={() => onSelect(tab.id)} title={tab.draft} className="min-w-0 truncate px-3 py-1.5 font-mono text-xs">
                {title}
              </button>
              {tabs.length > 1 ? (
                <button type="button" aria-label={`Close tab ${title}`} onClick={() => onClose(tab.id)} className="mr-1 rounded px-1 text-fg-muted hover:bg-surface-2 hover:text-fg">
                  <span aria-hidden="true">×</span>
                </button>
              ) : null}
            </li>
          );
        })}
        <li>
          <button type="button" onClick={onAdd} aria-label="New query tab" title="New query tab" className="rounded-t-md px-2.5 py-1 text-base leading-none text-fg-muted hover:bg-surface-2 hover:text-fg">
            +
          </button>
        </li>
      </ul>
    </nav>
  );
}
