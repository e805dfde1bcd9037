import type { ComponentType } from "react";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/skeleton";

/**
 * A plant's page: the plant id from the route (decoded; layout.tsx has checked access) handed to
 * the page's component, behind a skeleton while it loads when `loading` names what is loading.
 */
export function plantPage(Page: ComponentType<{ plantId: string }>, loading?: string) {
  return async function PlantPage({ params }: { params: Promise<{ plantId: string }> }) {
    const { plantId } = await params;
    const page = <Page plantId={decodeURIComponent(plantId)} />;
    return loading ? <Suspense fallback={<PageSkeleton label={loading} />}>{page}</Suspense> : page;
  };
}
