"use client";
/**
 * Whether telemetry times are read in UTC (as the API returns them, and as colleagues at other
 * plants see them) or on the reader's own clock. One choice per browser, kept in localStorage and
 * shared by the explorer and the asset page; it changes in every open page at once.
 */
import { useCallback, useSyncExternalStore } from "react";
import { useTimeZone } from "@/lib/client/format";

type TimeMode = "local" | "utc";

const STORAGE_KEY = "plantdesk-time-mode";
const EVENT = "plantdesk-time-mode";

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

function read(): TimeMode {
  try {
    return localStorage.getItem(STORAGE_KEY) === "utc" ? "utc" : "local";
  } catch {
    return "local";
  }
}

/** The chosen mode, the IANA zone it means, and a setter. */
export function useTimeMode(): { mode: TimeMode; timeZone: string; setMode: (mode: TimeMode) => void } {
  const mode = useSyncExternalStore(subscribe, read, () => "utc" as const);
  const local = useTimeZone();
  const setMode = useCallback((next: TimeMode) => {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage disabled: the choice still holds until the page is left.
    }
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return { mode, timeZone: mode === "utc" ? "UTC" : local, setMode };
}
