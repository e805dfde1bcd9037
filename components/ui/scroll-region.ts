"use client";
import { useEffect, useState, type RefObject } from "react";

/**
 * Whether the element scrolls sideways now. A region that scrolls must take the keyboard's focus
 * (WCAG 2.1.1; axe's scrollable-region-focusable) so arrow keys can scroll it, but a region that
 * fits should not add a tab stop: the answer follows the element's and its content's sizes.
 */
export function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}
