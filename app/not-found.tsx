import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

/** Any address the console does not have: say so in words and offer the way back (status 404). */
export default function NotFound() {
  return (
    <main id="main" className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-4 px-6 py-16">
      <p className="text-sm font-semibold text-accent">404 · Page not found</p>
      <h1 className="text-2xl font-semibold">There is no page at this address</h1>
      <p className="text-fg-muted">
        The link may be old, or mistyped, or the plant or record may no longer exist. Your work is not affected.
      </p>
      <ul className="flex flex-wrap gap-3 text-sm font-medium">
        <li>
          <Link href="/" className="rounded-md bg-accent px-3 py-2 text-accent-fg hover:opacity-90">
            Go to your plants
          </Link>
        </li>
        <li>
          <Link href="/signin" className="rounded-md border border-line px-3 py-2 hover:bg-surface-2">
            Sign in again
          </Link>
        </li>
      </ul>
    </main>
  );
}
