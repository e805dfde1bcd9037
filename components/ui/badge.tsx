import type { ReactNode } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger";

const tones: Record<BadgeTone, string> = {
  neutral: "bg-surface-2 text-fg-muted border-line",
  accent: "bg-accent-soft text-accent border-transparent",
  success: "bg-success-soft text-success border-transparent",
  warning: "bg-warning-soft text-warning border-transparent",
  danger: "bg-danger-soft text-danger border-transparent",
};

/** `wrap`: a long text (a company's lookup label) breaks over lines instead of running out of its box. */
export function Badge({ tone = "neutral", children, className, title, wrap = false }: { tone?: BadgeTone; children: ReactNode; className?: string; title?: string; wrap?: boolean }) {
  return (
    <span
      title={title}
      className={cn(
        "inline-flex items-center gap-1 border px-2 py-0.5 text-xs font-medium",
        wrap ? "rounded-md text-left whitespace-normal" : "rounded-full whitespace-nowrap",
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
