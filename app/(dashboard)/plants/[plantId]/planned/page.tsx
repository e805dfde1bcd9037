import type { Metadata } from "next";
import { Suspense } from "react";
import { PlannedWork } from "@/components/assets/planned-work";
import { PageSkeleton } from "@/components/ui/skeleton";

export const metadata: Metadata = { title: "Planned work" };

export default async function PlannedWorkPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return (
    <Suspense fallback={<PageSkeleton label="Loading planned work" />}>
      <PlannedWork plantId={decodeURIComponent(plantId)} />
    </Suspense>
  );
}
