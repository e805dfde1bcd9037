"use client";
/**
 * The width a chart's plot will have inside an element, for the server to choose the resolution
 * (docs/explorer.md): measured with a ResizeObserver and rounded down to 100 px steps, so a
 * scrollbar or a small resize does not ask the server again. `panes` charts share the width.
 */
import { useEffect, useState, type RefObject } from "react";

/** Room the value axes, the card's padding and the gap between panes take. */
const CHROME_PX = 160;
const STEP_PX = 100;

function plotWidth(elementWidth: number, panes: number): number {
  const each = (elementWidth - (panes - 1) * 16) / panes - CHROME_PX;
  return Math.max(200, Math.floor(each / STEP_PX) * STEP_PX);
}

export function useChartWidth(ref: RefObject<HTMLElement | null>, panes = 1): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width > 0 ? plotWidth(width, panes) : 0;
}
