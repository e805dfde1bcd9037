import type { Metadata } from "next";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/skeleton";
import { TelemetryExplorer } from "@/components/telemetry/telemetry-explorer";

export const metadata: Metadata = { title: "Telemetry explorer" };

export default async function TelemetryPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return (
    <Suspense fallback={<PageSkeleton label="Loading the telemetry explorer" />}>
      <TelemetryExplorer plantId={decodeURIComponent(plantId)} />
    </Suspense>
  );
}
