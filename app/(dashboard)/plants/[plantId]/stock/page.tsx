import type { Metadata } from "next";
import { StockLevels } from "@/modules/maintenance/components/stock/stock-levels";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Stock levels" };

export default plantPage(StockLevels);
