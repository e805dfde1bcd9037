import type { ReactNode } from "react";
import { errorMessage } from "@/lib/client/api";
import { Button } from "./button";
import { cn } from "./cn";

export function EmptyState({ title, children, action, className }: { title: string; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn("flex flex-col items-center justify-center gap-2 px-6 py-10 text-center", className)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8 text-fg-muted" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d="M3 7.5 12 3l9 4.5v9L12 21l-9-4.5v-9Z" />
        <path d="m3 7.5 9 4.5 9-4.5M12 12v9" />
      </svg>
      <p className="font-medium">{title}</p>
      {children ? <div className="max-w-md text-sm text-fg-muted">{children}</div> : null}
      {action}
    </div>
  );
}

export function ErrorState({ error, title = "Could not load this", onRetry, className }: { error: unknown; title?: string; onRetry?: () => void; className?: string }) {
  return (
    <div role="alert" className={cn("flex flex-col items-center justify-center gap-2 px-6 py-10 text-center", className)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8 text-danger" fill="none" stroke="currentColor" strokeWidth="1.5">
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7.5v5.5M12 16.5v.01" strokeLinecap="round" />
      </svg>
      <p className="font-medium">{title}</p>
      <p className="max-w-md text-sm text-fg-muted">{errorMessage(error)}</p>
      {onRetry ? (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
