"use client";
/**
 * The frame of every dashboard page: top bar (menu button on narrow screens, product name, plant
 * switcher, theme, user menu) and the side navigation. Wide screens show the navigation as a
 * column; tablets and phones open it as an overlay from the menu button.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, usePathname } from "next/navigation";
import { Suspense, useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { meQueryKey, useMe, type Me } from "@/lib/client/me";
import { NavIconSvg } from "./icons";
import { NAV_ITEMS, plantPath, sectionOf } from "./nav-items";
import { PlantSwitcher } from "./plant-switcher";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { NotificationBell } from "@/modules/notifications/components/notification-bell";

export function AppShell({ children, initialMe }: { children: ReactNode; initialMe?: Me }) {
  const queryClient = useQueryClient();
  // Seed the cache once, before any child asks for `/api/me` (no other subscriber exists yet).
  useState(() => {
    if (initialMe && !queryClient.getQueryData(meQueryKey)) queryClient.setQueryData(meQueryKey, initialMe);
    return null;
  });
  const me = useMe();
  const params = useParams<{ plantId?: string }>();
  const plantId = params.plantId ? decodeURIComponent(params.plantId) : undefined;
  const [navOpen, setNavOpen] = useState(false);

  return (
    <div className="min-h-dvh">
      <a href="#main" className="sr-only z-50 rounded bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-line bg-surface/95 px-3 backdrop-blur sm:px-4">
        <button
          type="button"
          className="rounded-md p-2 text-fg-muted hover:bg-surface-2 hover:text-fg lg:hidden"
          aria-label={navOpen ? "Close navigation" : "Open navigation"}
          aria-expanded={navOpen}
          aria-controls="side-nav"
          onClick={() => setNavOpen((value) => !value)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M4 6h16M4 12h16M4 18h16" />
          </svg>
        </button>
        <Link href={plantId ? plantPath(plantId) : "/"} className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-md bg-accent text-sm font-bold text-accent-fg">
            P
          </span>
          <span className="sr-only sm:not-sr-only">Plantdesk</span>
        </Link>
        <div className="mx-1 h-6 w-px bg-line" aria-hidden="true" />
        {me.data ? (
          <Suspense fallback={<Skeleton className="h-9 w-48" />}>
            <PlantSwitcher plants={me.data.plants} plantId={plantId} />
          </Suspense>
        ) : (
          <Skeleton className="h-9 w-48" />
        )}
        <div className="ml-auto flex items-center gap-1">
          {me.data ? <NotificationBell /> : null}
          <ThemeToggle />
          {me.data ? <UserMenu me={me.data} /> : <Skeleton className="h-9 w-9 rounded-full" />}
        </div>
      </header>

      <div className="flex">
        {/* The column's background and border run the page's whole height (a long board included); the nav inside stays in view. */}
        <div className="lg:w-60 lg:shrink-0 lg:border-r lg:border-line lg:bg-surface">
          <SideNav me={me.data} plantId={plantId} open={navOpen} onNavigate={() => setNavOpen(false)} />
        </div>
        {navOpen ? <div className="fixed inset-0 top-14 z-10 bg-black/30 lg:hidden" aria-hidden="true" onClick={() => setNavOpen(false)} /> : null}
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-3 py-5 outline-none sm:px-6 lg:px-8">
          {me.error ? <ErrorState error={me.error} title="Could not load your account" onRetry={() => void me.refetch()} /> : children}
        </main>
      </div>
    </div>
  );
}

function SideNav({ me, plantId, open, onNavigate }: { me: Me | undefined; plantId: string | undefined; open: boolean; onNavigate: () => void }) {
  const pathname = usePathname();
  const current = sectionOf(pathname);
  const targetPlant = plantId ?? me?.plants[0]?.id;
  const items = NAV_ITEMS.filter((item) => me?.permissions.includes(item.permission));

  return (
    <nav
      id="side-nav"
      aria-label="Main"
      className={cn(
        "fixed inset-y-0 top-14 left-0 z-20 w-60 shrink-0 overflow-y-auto border-r border-line bg-surface px-2 py-4 transition-transform",
        "lg:sticky lg:h-[calc(100dvh-3.5rem)] lg:w-full lg:translate-x-0 lg:border-r-0",
        open ? "translate-x-0 shadow-xl" : "-translate-x-full",
      )}
    >
      {!me || !targetPlant ? (
        <div className="space-y-2 px-2">
          {NAV_ITEMS.map((item) => (
            <Skeleton key={item.label} className="h-8 w-full" />
          ))}
        </div>
      ) : (
        <ul className="space-y-0.5">
          {items.map((item) => {
            const active = item.path ? pathname === item.path : plantId !== undefined && current === item.segment;
            return (
              <li key={item.label}>
                <Link
                  href={item.path ?? plantPath(targetPlant, item.segment)}
                  aria-current={active ? "page" : undefined}
                  onClick={onNavigate}
                  className={cn(
                    "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
                    active ? "bg-accent-soft text-accent" : "text-fg-muted hover:bg-surface-2 hover:text-fg",
                  )}
                >
                  <NavIconSvg icon={item.icon} />
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
