"use client";

import { ErrorState } from "@/components/ui/states";

/** Anything a page throws while rendering ends here, inside the frame, with a way to retry. */
export default function DashboardError({ error, reset }: { error: Error; reset: () => void }) {
  return <ErrorState error={error} title="This page failed to load" onRetry={reset} />;
}
