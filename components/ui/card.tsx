import type { ReactNode } from "react";
import { cn } from "./cn";

export function Card({ children, className, as: Tag = "section", ...rest }: { children: ReactNode; className?: string; as?: "section" | "div" | "article"; "aria-labelledby"?: string }) {
  return (
    <Tag className={cn("rounded-lg border border-line bg-surface shadow-sm", className)} {...rest}>
      {children}
    </Tag>
  );
}

export function CardHeader({ title, description, actions, id }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-4 py-3">
      <div className="min-w-0 flex-1">
        <h2 id={id} className="text-base font-semibold wrap-anywhere">
          {title}
        </h2>
        {description ? <p className="mt-0.5 text-sm text-fg-muted wrap-anywhere">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function CardBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("p-4", className)}>{children}</div>;
}
