/** KQL's dynamic functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const DYNAMIC: readonly FunctionEntry[] = [
  documented("scalar", "parse_json", "parse_json(s): dynamic — text parsed as JSON"),
  documented("scalar", "todynamic", "todynamic(s): dynamic — text parsed as JSON"),
  documented("scalar", "toobject", "toobject(s): dynamic — text parsed as a JSON object"),
  documented("scalar", "bag_keys", "bag_keys(Bag): dynamic array — the keys of a property bag"),
  documented("scalar", "array_length", "array_length(Array): long — the number of elements (null if not an array)"),
  documented("scalar", "repeat", "repeat(Value, Count): dynamic array — an array of Count copies of Value"),
  documented("scalar", "array_sum", "array_sum(Array): real — the sum of an array's numbers"),
  documented("scalar", "pack_array", "pack_array(a, b, …): dynamic — the values as an array"),
  documented("scalar", "bag_pack", "bag_pack(Key, Value, …): dynamic — a property bag of keys and values"),
  documented("scalar", "pack", "pack(Key, Value, …): dynamic — a property bag of keys and values"),
];
