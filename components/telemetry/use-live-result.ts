"use client";
/**
 * Keeps a result whose range ends "now" current (live-refresh.ts has the rules): every `intervalMs`
 * it asks for what is new, appends it to the result it shows and slides the window, so a chart
 * gets new points without being drawn again from scratch. A result that cannot be appended to (no
 * time axis) is asked for whole instead. A new base result (a new run, another range) starts over.
 */
import { useEffect, useRef, useState } from "react";
import { appendRows, nextDeltaStart, timeColumn } from "./live-refresh";
import type { QueryResult } from "./series";

interface LiveWindow {
  start: number;
  end: number;
}

interface Live {
  basis: QueryResult | undefined;
  result: QueryResult | undefined;
  window: LiveWindow | null;
  /** When new rows were last appended (ms); null until the first refresh of this base. */
  updatedAt: number | null;
}

export function useLiveResult(
  base: QueryResult | undefined,
  baseWindow: LiveWindow | null,
  options: {
    /** Null: no auto-refresh. */
    intervalMs: number | null;
    /** Length of the window (the relative range). */
    spanMs: number;
    /** Runs the same query over [startTime, endTime). */
    fetchRange: (startTime: string, endTime: string, signal: AbortSignal) => Promise<QueryResult>;
  },
): { result: QueryResult | undefined; window: LiveWindow | null; updatedAt: number | null; error: unknown } {
  const [live, setLive] = useState<Live>({ basis: base, result: base, window: baseWindow, updatedAt: null });
  const [error, setError] = useState<unknown>(null);
  // A new run replaces whatever was appended so far.
  if (live.basis !== base) setLive({ basis: base, result: base, window: baseWindow, updatedAt: null });

  const latest = useRef(live);
  const fetchRange = useRef(options.fetchRange);
  useEffect(() => {
    latest.current = live;
    fetchRange.current = options.fetchRange;
  });

  const { intervalMs, spanMs } = options;
  const active = intervalMs !== null && base !== undefined;
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let busy = false;
    const tick = async () => {
      const current = latest.current;
      if (busy || !current.result || !current.window) return;
      busy = true;
      const end = Math.floor(Date.now() / 1000) * 1000;
      const start = end - spanMs;
      const appendable = timeColumn(current.result) >= 0;
      const from = appendable ? nextDeltaStart(current.result, current.window.end) : start;
      try {
        const delta = await fetchRange.current(new Date(from).toISOString(), new Date(end).toISOString(), controller.signal);
        setError(null);
        setLive((previous) => {
          if (previous.basis !== current.basis || !previous.result) return previous;
          const merged = appendable ? appendRows(previous.result, delta, from, start) : null;
          return { basis: previous.basis, result: merged ?? delta, window: { start, end }, updatedAt: Date.now() };
        });
      } catch (failure) {
        if (!controller.signal.aborted) setError(failure);
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void tick(), intervalMs);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [active, intervalMs, spanMs, base]);

  return { result: live.result, window: live.window, updatedAt: live.updatedAt, error };
}
