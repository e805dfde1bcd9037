/**
 * The stock-level form's checks: exactly the shared `ZStockLevel` schema the service validates
 * with. `isShort` is three-way: left out (the service decides from the reorder point), yes or no.
 */
import { ZStockLevel, type TStockLevel } from "@/lib/upstream/schemas/maintenance";

export type ShortChoice = "auto" | "yes" | "no";

export interface StockFormValues {
  quantity: string;
  unit: string;
  remark: string;
  isShort: ShortChoice;
}

export type StockFormErrors = Partial<Record<keyof StockFormValues, string>>;

export function toStockLevel(partId: string, values: StockFormValues): TStockLevel {
  return {
    id: partId,
    quantity: values.quantity.trim() === "" ? Number.NaN : Number(values.quantity),
    unit: values.unit as TStockLevel["unit"],
    remark: values.remark.trim() === "" ? null : values.remark.trim(),
    ...(values.isShort === "auto" ? {} : { isShort: values.isShort === "yes" }),
  };
}

export function validateStockForm(partId: string, values: StockFormValues): StockFormErrors {
  const errors: StockFormErrors = {};
  if (values.quantity.trim() === "") errors.quantity = "Enter the quantity counted.";
  const parsed = ZStockLevel.safeParse(toStockLevel(partId, values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "quantity" || field === "unit" || field === "remark") && !errors[field]) {
        errors[field] = field === "quantity" ? "Enter a number of 0 or more." : issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
      }
    }
  }
  return errors;
}
