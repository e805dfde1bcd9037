"use client";
/**
 * The asset hierarchy as an ARIA tree (WAI-ARIA APG "tree view"): one tab stop, arrow keys move,
 * Right/Left open, close or go to the parent, Home/End jump, Enter/Space choose, typing a letter
 * jumps to the next asset whose tag starts with it. The chosen asset lives in the URL (parent).
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ancestorTags, visibleRows, type AssetTree } from "./asset-tree";

export function AssetTreeView({
  tree,
  search,
  selectedTag,
  onSelect,
}: {
  tree: AssetTree;
  search: string;
  selectedTag: string | null;
  onSelect: (tag: string) => void;
}) {
  // Open the path to the chosen asset, and the top level, when the tree first appears.
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    const open = new Set(tree.roots.map((r) => r.asset.tagNumber));
    const chosen = selectedTag ? tree.byTag.get(selectedTag) : undefined;
    if (chosen) for (const tag of ancestorTags(chosen)) open.add(tag);
    return open;
  });
  const rows = useMemo(() => visibleRows(tree, expanded, search), [tree, expanded, search]);
  const [focusTag, setFocusTag] = useState<string | null>(selectedTag);
  const activeTag = rows.some((r) => r.node.asset.tagNumber === focusTag) ? focusTag : (rows[0]?.node.asset.tagNumber ?? null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const moved = useRef(false);

  useEffect(() => {
    // Move DOM focus only after a key press inside the tree, never on render or page load.
    if (moved.current && activeTag) items.current.get(activeTag)?.focus();
    moved.current = false;
  }, [activeTag, rows]);

  const toggle = (tag: string, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(tag);
      else next.delete(tag);
      return next;
    });

  const focus = (tag: string | undefined) => {
    if (!tag) return;
    moved.current = true;
    setFocusTag(tag);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = rows.findIndex((r) => r.node.asset.tagNumber === activeTag);
    const row = rows[index];
    if (!row) return;
    const tag = row.node.asset.tagNumber;
    let handled = true;
    switch (event.key) {
      case "ArrowDown":
        focus(rows[index + 1]?.node.asset.tagNumber);
        break;
      case "ArrowUp":
        focus(rows[index - 1]?.node.asset.tagNumber);
        break;
      case "Home":
        focus(rows[0]?.node.asset.tagNumber);
        break;
      case "End":
        focus(rows.at(-1)?.node.asset.tagNumber);
        break;
      case "ArrowRight":
        if (row.hasChildren && !row.expanded && !search) toggle(tag, true);
        else if (row.expanded) focus(rows[index + 1]?.node.asset.tagNumber);
        break;
      case "ArrowLeft":
        if (row.expanded && !search) toggle(tag, false);
        else focus(row.node.parent?.asset.tagNumber);
        break;
      case "Enter":
      case " ":
        onSelect(tag);
        break;
      default:
        if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
          const key = event.key.toLowerCase();
          const after = [...rows.slice(index + 1), ...rows.slice(0, index + 1)];
          focus(after.find((r) => r.node.asset.tagNumber.toLowerCase().startsWith(key))?.node.asset.tagNumber);
        } else handled = false;
    }
    if (handled) event.preventDefault();
  };

  if (rows.length === 0) {
    return <p className="px-3 py-6 text-center text-sm text-fg-muted">No asset matches “{search}”.</p>;
  }

  return (
    <ul role="tree" aria-label="Assets" className="flex flex-col py-1" onKeyDown={onKeyDown} data-testid="asset-tree">
      {rows.map((row) => {
        const { asset } = row.node;
        const selected = asset.tagNumber === selectedTag;
        return (
          <li
            key={asset.tagNumber}
            ref={(element) => {
              if (element) items.current.set(asset.tagNumber, element);
              else items.current.delete(asset.tagNumber);
            }}
            role="treeitem"
            aria-level={row.node.depth + 1}
            aria-posinset={row.posInSet}
            aria-setsize={row.setSize}
            aria-expanded={row.hasChildren ? row.expanded : undefined}
            aria-selected={selected}
            tabIndex={asset.tagNumber === activeTag ? 0 : -1}
            data-tag={asset.tagNumber}
            onClick={() => {
              setFocusTag(asset.tagNumber);
              onSelect(asset.tagNumber);
            }}
            className={cn(
              "flex cursor-pointer items-center gap-1.5 rounded-md py-1 pr-2 text-sm outline-offset-[-2px]",
              selected ? "bg-accent-soft font-medium" : "hover:bg-surface-2",
            )}
            style={{ paddingLeft: `${0.25 + row.node.depth * 1}rem` }}
          >
            {row.hasChildren ? (
              <span
                aria-hidden
                className="inline-flex size-5 shrink-0 items-center justify-center rounded text-fg-muted hover:bg-surface-2"
                onClick={(event) => {
                  event.stopPropagation();
                  if (!search) toggle(asset.tagNumber, !row.expanded);
                }}
              >
                <svg viewBox="0 0 16 16" className={cn("size-3 transition-transform", row.expanded && "rotate-90")} fill="currentColor">
                  <path d="M6 3.5 11 8l-5 4.5z" />
                </svg>
              </span>
            ) : (
              <span aria-hidden className="inline-block size-5 shrink-0" />
            )}
            <span className="min-w-0 flex-1">
              <span className={cn("block truncate", row.matched && "underline decoration-accent decoration-2 underline-offset-2")}>
                <span className="font-mono text-xs">{asset.tagNumber}</span> <span className="text-fg-muted">·</span> {asset.name}
              </span>
              {search && row.matched && (asset.serialNumber || asset.externalReference) ? (
                <span className="block truncate text-xs text-fg-muted">
                  {[asset.serialNumber && `S/N ${asset.serialNumber}`, asset.externalReference && `Ref ${asset.externalReference}`].filter(Boolean).join(" · ")}
                </span>
              ) : null}
            </span>
            {asset.criticality === "A" && (
              <Badge tone="danger" title="Criticality A">
                A
              </Badge>
            )}
          </li>
        );
      })}
    </ul>
  );
}
