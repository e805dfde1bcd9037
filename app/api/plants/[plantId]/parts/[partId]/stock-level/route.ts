export { submitStockLevel as PUT } from "@/lib/bff/routes";
