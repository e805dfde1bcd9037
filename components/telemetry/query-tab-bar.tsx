"use client";
/**
 * The row of query tabs above the editor: choose one, rename one, close one, open a new one. Plain
 * buttons in a list (the close button cannot sit inside a WAI-ARIA tab), the open tab marked
 * `aria-current`. Renaming: the tab's rename button, F2 on the tab, or a double click; Enter keeps
 * the name, Escape drops it, and the focus goes back to the tab.
 */
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { MAX_TAB_NAME, tabTitle, type QueryTab } from "./query-tabs";

export function QueryTabBar({
  tabs,
  active,
  onSelect,
  onAdd,
  onClose,
  onRename,
}: {
  tabs: QueryTab[];
  active: string;
  onSelect: (id: string) => void;
  onAdd: () => void;
  onClose: (id: string) => void;
  /** Without it tabs cannot be renamed. */
  onRename?: (id: string, name: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const tabButtons = useRef(new Map<string, HTMLButtonElement>());
  const refocus = useRef<string | null>(null);
  useEffect(() => {
    if (editing === null && refocus.current) {
      tabButtons.current.get(refocus.current)?.focus();
      refocus.current = null;
    }
  }, [editing]);
  if (tabs.length === 0) return null;
  const finish = (id: string, name: string | null) => {
    if (name !== null) onRename?.(id, name);
    refocus.current = id;
    setEditing(null);
  };
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
              {editing === tab.id ? (
                <TabNameInput initial={tab.name ?? title} onDone={(name) => finish(tab.id, name)} />
              ) : (
                <button
                  type="button"
                  ref={(element) => {
                    if (element) tabButtons.current.set(tab.id, element);
                    else tabButtons.current.delete(tab.id);
                  }}
                  aria-current={current ? "page" : undefined}
                  aria-keyshortcuts={onRename ? "F2" : undefined}
                  onClick={() => onSelect(tab.id)}
                  onDoubleClick={onRename ? () => setEditing(tab.id) : undefined}
                  onKeyDown={(event) => {
                    if (event.key === "F2" && onRename) {
                      event.preventDefault();
                      setEditing(tab.id);
                    }
                  }}
                  title={tab.name ? `${tab.name}\n${tab.draft}` : tab.draft}
                  className={cn("min-w-0 truncate px-3 py-1.5 text-xs", tab.name ? "font-sans" : "font-mono")}
                >
                  {title}
                </button>
              )}
              {onRename && current && editing !== tab.id ? (
                <button type="button" aria-label={`Rename tab ${title}`} title="Rename (F2)" onClick={() => setEditing(tab.id)} className="rounded px-1 text-fg-muted hover:bg-surface-2 hover:text-fg">
                  <span aria-hidden="true">✎</span>
                </button>
              ) : null}
              {tabs.length > 1 && editing !== tab.id ? (
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

/** The name field of a tab being renamed: focused and selected; Enter or leaving keeps, Escape drops. */
function TabNameInput({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const end = (name: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(name);
  };
  return (
    <input
      aria-label="Tab name"
      // The field opens because the person asked to rename: it takes the focus at once.
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      value={value}
      maxLength={MAX_TAB_NAME}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          end(value);
        } else if (event.key === "Escape") {
          event.preventDefault();
          end(null);
        }
      }}
      onBlur={() => end(value)}
      className="m-0.5 w-40 rounded border border-line bg-surface px-2 py-1 text-xs text-fg focus:outline-2 focus:outline-focus"
    />
  );
}
