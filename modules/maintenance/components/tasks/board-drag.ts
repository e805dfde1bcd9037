"use client";
/**
 * Dragging a task card to another column, with pointer events so a mouse, a pen and a finger all
 * work (HTML drag and drop never fires for touch). A mouse or pen drag starts once the pointer has
 * moved a few pixels; a finger first holds still on the card for a moment (a long press), so an
 * ordinary swipe still scrolls the board. While a finger drags, the page must not scroll: the
 * `touchmove` default is prevented for exactly that time. Near the board's left or right edge the
 * board scrolls by itself, so every column can be reached in one drag.
 */
import { useCallback, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent, type RefObject } from "react";
import type { TTask, TTaskStatus } from "@/modules/maintenance/contract/maintenance";

/** Movement (px) that turns a mouse press into a drag rather than a click. */
const MOUSE_START_PX = 6;
/** How long a finger holds still before the card lifts (ms), and how far it may wander meanwhile. */
const LONG_PRESS_MS = 350;
const LONG_PRESS_SLOP_PX = 10;
/** Width of the band at the board's edges that scrolls it during a drag, and the speed there. */
const EDGE_PX = 48;
const EDGE_SPEED_PX = 14;

export interface BoardDrag {
  task: TTask;
  x: number;
  y: number;
  /** The column under the pointer, if any. */
  over: TTaskStatus | null;
}

interface Pending {
  task: TTask;
  pointerId: number;
  touch: boolean;
  startX: number;
  startY: number;
  lifted: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

function columnAt(x: number, y: number): TTaskStatus | null {
  const element = document.elementFromPoint(x, y)?.closest<HTMLElement>("[data-status]");
  return (element?.dataset.status as TTaskStatus | undefined) ?? null;
}

export function useBoardDrag({
  scroller,
  canDrag,
  onDrop,
}: {
  scroller: RefObject<HTMLElement | null>;
  canDrag: (task: TTask) => boolean;
  onDrop: (task: TTask, to: TTaskStatus) => void;
}) {
  const [drag, setDrag] = useState<BoardDrag | null>(null);
  const pending = useRef<Pending | null>(null);
  /** Set after a drag ends, so the click the browser sends next does not open the card. */
  const swallowClick = useRef(false);
  const latest = useRef({ onDrop });
  useEffect(() => {
    latest.current = { onDrop };
  });

  const stop = useCallback(() => {
    const current = pending.current;
    if (current?.timer) clearTimeout(current.timer);
    pending.current = null;
    setDrag(null);
  }, []);

  useEffect(() => {
    const move = (event: PointerEvent) => {
      const current = pending.current;
      if (!current || event.pointerId !== current.pointerId) return;
      const distance = Math.hypot(event.clientX - current.startX, event.clientY - current.startY);
      if (!current.lifted) {
        if (current.touch) {
          // Moving before the long press completes is a swipe: leave it to the browser.
          if (distance > LONG_PRESS_SLOP_PX) stop();
          return;
        }
        if (distance < MOUSE_START_PX) return;
        current.lifted = true;
      }
      const board = scroller.current;
      if (board) {
        const rect = board.getBoundingClientRect();
        if (event.clientX < rect.left + EDGE_PX) board.scrollLeft -= EDGE_SPEED_PX;
        else if (event.clientX > rect.right - EDGE_PX) board.scrollLeft += EDGE_SPEED_PX;
      }
      setDrag({ task: current.task, x: event.clientX, y: event.clientY, over: columnAt(event.clientX, event.clientY) });
    };
    const up = (event: PointerEvent) => {
      const current = pending.current;
      if (!current || event.pointerId !== current.pointerId) return;
      if (current.lifted) {
        swallowClick.current = true;
        const to = columnAt(event.clientX, event.clientY);
        if (to && to !== current.task.status) latest.current.onDrop(current.task, to);
      }
      stop();
    };
    const cancel = (event: PointerEvent) => {
      if (pending.current && event.pointerId === pending.current.pointerId) stop();
    };
    // Non-passive, so a lifted card's finger drag does not scroll the page underneath.
    const holdPage = (event: TouchEvent) => {
      if (pending.current?.lifted && event.cancelable) event.preventDefault();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape" && pending.current) stop();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    window.addEventListener("keydown", escape);
    document.addEventListener("touchmove", holdPage, { passive: false });
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      window.removeEventListener("keydown", escape);
      document.removeEventListener("touchmove", holdPage);
    };
  }, [scroller, stop]);

  /** Props for a card's button: starts a drag on press, and keeps a drag's final click from opening it. */
  const cardProps = (task: TTask) => ({
    "data-movable": canDrag(task) ? "true" : "false",
    onPointerDown: (event: ReactPointerEvent<HTMLElement>) => {
      swallowClick.current = false;
      if (!canDrag(task) || pending.current) return;
      if (event.pointerType === "mouse" && event.button !== 0) return;
      const touch = event.pointerType === "touch";
      const state: Pending = { task, pointerId: event.pointerId, touch, startX: event.clientX, startY: event.clientY, lifted: false, timer: null };
      if (touch) {
        state.timer = setTimeout(() => {
          state.lifted = true;
          setDrag({ task, x: state.startX, y: state.startY, over: task.status });
        }, LONG_PRESS_MS);
      }
      pending.current = state;
    },
    // A long press would otherwise open the browser's context menu on touch screens.
    onContextMenu: (event: ReactMouseEvent) => {
      if (pending.current?.touch) event.preventDefault();
    },
    onClickCapture: (event: ReactMouseEvent) => {
      if (swallowClick.current) {
        swallowClick.current = false;
        event.preventDefault();
        event.stopPropagation();
      }
    },
  });

  return { drag, cardProps };
}
