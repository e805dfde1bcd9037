"use client";
/**
 * Query tabs, as in Azure Data Explorer: several queries open side by side, each with its own text,
 * range, plants and view. The active tab is the page's URL (so a link still shows one query);
 * every tab is kept in localStorage per plant, so the tabs survive a reload or a return tomorrow.
 * A tab is `{ id, search, draft, name? }`: `search` is the explorer state it last showed (explorer-state.ts),
 * `draft` the editor's text, which may be ahead of the last run, `name` what the person called it.
 */
import { useCallback, useSyncExternalStore } from "react";

export interface QueryTab {
  id: string;
  /** The explorer's URL search (without `tab`) this tab last showed; "" for a fresh tab. */
  search: string;
  draft: string;
  /** The name the person gave the tab; absent: named after its query. */
  name?: string;
}

/** Longest tab name kept. */
export const MAX_TAB_NAME = 60;

interface TabsState {
  tabs: QueryTab[];
  active: string;
}

/** More tabs than this and the oldest inactive one is closed: localStorage is small. */
export const MAX_TABS = 12;
const MAX_DRAFT = 20_000;

const storageKey = (plantId: string) => `plantdesk-explorer-tabs:${plantId}`;
const EVENT = "plantdesk-explorer-tabs";

function isTab(value: unknown): value is QueryTab {
  const tab = value as QueryTab;
  return (
    typeof tab === "object" &&
    tab !== null &&
    typeof tab.id === "string" &&
    typeof tab.search === "string" &&
    typeof tab.draft === "string" &&
    (tab.name === undefined || typeof tab.name === "string")
  );
}

/** Reads stored tabs, dropping anything malformed (storage is the user's to edit). */
export function parseTabs(raw: string | null): TabsState | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { tabs?: unknown; active?: unknown };
    const tabs = Array.isArray(value.tabs) ? value.tabs.filter(isTab).slice(0, MAX_TABS) : [];
    if (tabs.length === 0) return null;
    const active = typeof value.active === "string" && tabs.some((tab) => tab.id === value.active) ? value.active : tabs[0]!.id;
    return { tabs, active };
  } catch {
    return null;
  }
}

/** A tab's name: the one it was given, else its query on one line, comments left out, shortened. */
export function tabTitle(tab: QueryTab, index: number): string {
  if (tab.name) return tab.name;
  const text = tab.draft
    .split("\n")
    .filter((line) => !line.trim().startsWith("//"))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return `Query ${index + 1}`;
  return text.length > 32 ? `${text.slice(0, 31)}…` : text;
}

/**
 * The tabs with one renamed: the name trimmed to one line of at most MAX_TAB_NAME characters; an
 * empty name gives the tab back its query's name.
 */
export function renameTab(tabs: readonly QueryTab[], id: string, name: string): QueryTab[] {
  const clean = name.replace(/\s+/g, " ").trim().slice(0, MAX_TAB_NAME);
  return tabs.map((tab) => {
    if (tab.id !== id) return tab;
    const { name: _, ...rest } = tab;
    return clean ? { ...rest, name: clean } : rest;
  });
}

export function newTabId(): string {
  return Math.random().toString(36).slice(2, 10);
}

const snapshots = new Map<string, { raw: string | null; state: TabsState | null }>();

/** The plant's stored tabs right now (outside React: event handlers, effects, first render). */
export function readTabs(plantId: string): TabsState | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(storageKey(plantId));
  } catch {
    // Storage disabled: no tabs are kept.
  }
  const cached = snapshots.get(plantId);
  if (cached && cached.raw === raw) return cached.state;
  const state = parseTabs(raw);
  snapshots.set(plantId, { raw, state });
  return state;
}

function writeTabs(plantId: string, state: TabsState): void {
  const trimmed = { active: state.active, tabs: state.tabs.slice(-MAX_TABS).map((tab) => ({ ...tab, draft: tab.draft.slice(0, MAX_DRAFT) })) };
  try {
    localStorage.setItem(storageKey(plantId), JSON.stringify(trimmed));
  } catch {
    // Full or disabled: the tabs still work until the page is left.
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** The plant's stored tabs (null before hydration and when none are stored), and a writer. */
export function useStoredTabs(plantId: string): [TabsState | null, (state: TabsState) => void] {
  const state = useSyncExternalStore(subscribe, () => readTabs(plantId), () => null);
  const write = useCallback((next: TabsState) => writeTabs(plantId, next), [plantId]);
  return [state, write];
}

/** The `q` of a tab's stored search: the query it last ran (null for a tab never run). */
export function queryOfSearch(search: string): string | null {
  return new URLSearchParams(search).get("q");
}

/** The tab that was active when the page was last left, if any. */
export function activeStoredTab(plantId: string): QueryTab | null {
  const saved = readTabs(plantId);
  return saved?.tabs.find((tab) => tab.id === saved.active) ?? null;
}
