"use client";
/**
 * The URL is the state of every view: the plant is in the path, every filter, page, sort and open
 * drawer in the search parameters. Reading goes through `useSearchParams`; writing goes through
 * `useUrlState().update`, which keeps the other parameters and, unless told otherwise, returns a
 * list to its first page when a filter changes (page 7 of the old filter is meaningless).
 */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { startTransition, useCallback, useOptimistic } from "react";

type ParamChanges = Record<string, string | number | null | undefined>;

interface UpdateOptions {
  /** Replace the history entry instead of pushing one (typing in a search box). */
  replace?: boolean;
  /** Keep `page` as it is (paging itself, opening a drawer). Default: reset to page 1. */
  keepPage?: boolean;
}

export function mergeParams(current: URLSearchParams, changes: ParamChanges, keepPage = false): URLSearchParams {
  const next = new URLSearchParams(current);
  if (!keepPage && !("page" in changes)) next.delete("page");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/**
 * The page's search parameters, and `update` to change them. Until the navigation completes the
 * new parameters are shown optimistically: a ticked box stays ticked and the data for the new
 * filter starts loading at once, instead of after the server's answer to the navigation.
 */
export function useUrlState() {
  const committed = useSearchParams();
  const [params, showParams] = useOptimistic<URLSearchParams | ReturnType<typeof useSearchParams>, URLSearchParams>(committed, (_current, next) => next);
  const pathname = usePathname();
  const router = useRouter();

  const update = useCallback(
    (changes: ParamChanges, options: UpdateOptions = {}) => {
      const next = mergeParams(new URLSearchParams(params.toString()), changes, options.keepPage);
      const query = next.toString();
      const url = query ? `${pathname}?${query}` : pathname;
      startTransition(() => {
        showParams(next);
        if (options.replace) router.replace(url, { scroll: false });
        else router.push(url, { scroll: false });
      });
    },
    [params, pathname, router, showParams],
  );

  const get = useCallback((key: string) => params.get(key) ?? "", [params]);

  return { params, get, update, pathname };
}

/** A positive integer search parameter, or the fallback when missing or malformed. */
export function intParam(value: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? Math.min(parsed, max) : fallback;
}
