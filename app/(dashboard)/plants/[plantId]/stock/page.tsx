import type { Metadata } from "next";
import { StockLevels } from "@/components/stock/stock-levels";

export const metadata: Metadata = { title: "Stock levels" };

export default async function StockLevelsPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return <StockLevels plantId={decodeURIComponent(plantId)} />;
}
