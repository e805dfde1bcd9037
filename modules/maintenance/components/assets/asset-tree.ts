/**
 * The plant's assets as a hierarchy (area > line > machine > component, linked by
 * `parentTagNumber`), its search, and the flat list of visible rows a keyboard-navigable tree
 * renders. Pure: no React, tested on its own.
 */
import type { TAsset } from "@/modules/maintenance/contract/maintenance";

interface AssetNode {
  asset: TAsset;
  children: AssetNode[];
  parent: AssetNode | null;
  depth: number;
}

export interface AssetTree {
  roots: AssetNode[];
  byTag: Map<string, AssetNode>;
}

const byTagNumber = (a: AssetNode, b: AssetNode) => (a.asset.tagNumber < b.asset.tagNumber ? -1 : a.asset.tagNumber > b.asset.tagNumber ? 1 : 0);

/** Builds the hierarchy. An asset whose parent is unknown (or that would close a cycle) is a root. */
export function buildAssetTree(assets: readonly TAsset[]): AssetTree {
  const byTag = new Map<string, AssetNode>();
  for (const asset of assets) byTag.set(asset.tagNumber, { asset, children: [], parent: null, depth: 0 });
  const roots: AssetNode[] = [];
  for (const node of byTag.values()) {
    const parent = node.asset.parentTagNumber ? byTag.get(node.asset.parentTagNumber) : undefined;
    if (parent && !isAncestor(node, parent)) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
  }
  const setDepth = (nodes: AssetNode[], depth: number) => {
    nodes.sort(byTagNumber);
    for (const node of nodes) {
      node.depth = depth;
      setDepth(node.children, depth + 1);
    }
  };
  setDepth(roots, 0);
  return { roots, byTag };
}

function isAncestor(candidate: AssetNode, node: AssetNode): boolean {
  for (let n: AssetNode | null = node; n; n = n.parent) if (n === candidate) return true;
  return false;
}

/** The tags of `node`'s ancestors, nearest first. */
export function ancestorTags(node: AssetNode): string[] {
  const tags: string[] = [];
  for (let n = node.parent; n; n = n.parent) tags.push(n.asset.tagNumber);
  return tags;
}

/** Whether an asset matches a search: tag, serial, external reference or name, ignoring case. */
function matchesSearch(asset: TAsset, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [asset.tagNumber, asset.serialNumber, asset.externalReference, asset.name].some((field) => field?.toLowerCase().includes(needle));
}

interface TreeRow {
  node: AssetNode;
  /** 1-based position among its siblings that are shown, and how many are shown (ARIA). */
  posInSet: number;
  setSize: number;
  expanded: boolean;
  hasChildren: boolean;
  matched: boolean;
}

/**
 * The rows to render, in order. Without a search: roots and the children of expanded nodes. With a
 * search: every match and its ancestors (opened so the match is visible), nothing else.
 */
export function visibleRows(tree: AssetTree, expanded: ReadonlySet<string>, search: string): TreeRow[] {
  const searching = search.trim() !== "";
  const keep = new Set<AssetNode>();
  const matched = new Set<AssetNode>();
  if (searching) {
    for (const node of tree.byTag.values()) {
      if (!matchesSearch(node.asset, search)) continue;
      matched.add(node);
      for (let n: AssetNode | null = node; n && !keep.has(n); n = n.parent) keep.add(n);
    }
  }
  const rows: TreeRow[] = [];
  const walk = (nodes: AssetNode[]) => {
    const shown = searching ? nodes.filter((n) => keep.has(n)) : nodes;
    shown.forEach((node, index) => {
      const shownChildren = searching ? node.children.filter((c) => keep.has(c)) : node.children;
      const isOpen = shownChildren.length > 0 && (searching || expanded.has(node.asset.tagNumber));
      rows.push({
        node,
        posInSet: index + 1,
        setSize: shown.length,
        expanded: isOpen,
        hasChildren: node.children.length > 0,
        matched: matched.has(node),
      });
      if (isOpen) walk(node.children);
    });
  };
  walk(tree.roots);
  return rows;
}
