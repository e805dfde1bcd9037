import type { Metadata } from "next";
import { PlantOverview } from "@/components/overview/plant-overview";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return <PlantOverview plantId={decodeURIComponent(plantId)} />;
}
