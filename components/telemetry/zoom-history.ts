"use client";
/**
 * Zooming a chart with an undo step, as in Grafana: each drag narrows the range and remembers the
 * one before, "Undo zoom" goes back one step, "Reset zoom" to where zooming began. The range itself
 * lives in the page's URL; the steps are kept only while the shown range is the last zoom's result
 * (choosing another range starts afresh).
 */
import { useState } from "react";
import { absoluteRange, type TimeRange } from "./explorer-state";

function sameRange(a: TimeRange, b: TimeRange): boolean {
  return a.kind === "relative" ? b.kind === "relative" && a.last === b.last : b.kind === "absolute" && a.from === b.from && a.to === b.to;
}

export function useZoomHistory(range: TimeRange, setRange: (range: TimeRange) => void) {
  const [steps, setSteps] = useState<{ before: TimeRange; after: TimeRange }[]>([]);
  const last = steps[steps.length - 1];
  const live = last && sameRange(last.after, range) ? steps : [];

  return {
    depth: live.length,
    zoom(fromMs: number, toMs: number) {
      const after = absoluteRange(fromMs, toMs);
      setSteps([...live, { before: range, after }]);
      setRange(after);
    },
    undo() {
      const top = live[live.length - 1];
      if (!top) return;
      setSteps(live.slice(0, -1));
      setRange(top.before);
    },
    reset() {
      const first = live[0];
      if (!first) return;
      setSteps([]);
      setRange(first.before);
    },
  };
}
