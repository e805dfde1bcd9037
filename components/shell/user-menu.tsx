"use client";

import Link from "next/link";
import { signOut } from "@/components/auth/sign-out";
import { useEffect, useId, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import type { Me } from "@/lib/client/me";

const ROLE_LABELS: Record<Me["role"], string> = {
  planner: "Planner",
  supervisor: "Supervisor",
  engineer: "Engineer",
  admin: "Administrator",
};

function roleLabel(role: Me["role"]): string {
  return ROLE_LABELS[role];
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase() || "?";
}

export function UserMenu({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-md p-1 pr-2 hover:bg-surface-2"
      >
        <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent">
          {initials(me.name)}
        </span>
        <span className="hidden text-left text-sm leading-tight md:block">
          <span className="block font-medium">{me.name}</span>
          <span className="block text-xs text-fg-muted">{roleLabel(me.role)}</span>
        </span>
        <span className="sr-only md:hidden">Account: {me.name}</span>
      </button>
      {open ? (
        <div id={menuId} className="absolute right-0 z-30 mt-2 w-64 rounded-lg border border-line bg-surface p-3 shadow-lg">
          <p className="font-medium">{me.name}</p>
          <p className="truncate text-sm text-fg-muted">{me.email}</p>
          <p className="mt-2">
            <Badge tone="accent">{roleLabel(me.role)}</Badge>
          </p>
          <p className="mt-2 text-xs text-fg-muted">
            {me.plants.length} plant{me.plants.length === 1 ? "" : "s"}: {me.plants.map((plant) => plant.id).join(", ")}
          </p>
          <Link
            href="/account/sessions"
            onClick={() => setOpen(false)}
            className="mt-3 block w-full rounded-md border border-line px-3 py-2 text-left text-sm font-medium hover:bg-surface-2"
          >
            Sessions
          </Link>
          <button
            type="button"
            onClick={() => void signOut()}
            className="mt-2 w-full rounded-md border border-line px-3 py-2 text-left text-sm font-medium hover:bg-surface-2"
          >
            Sign out
          </button>
        </div>
      ) : null}
    </div>
  );
}
