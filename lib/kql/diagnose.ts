/** Parse + semantic diagnostics for the editor's error marks. */
import { parse, type Diagnostic } from "./parser";

export function diagnose(text: string): Diagnostic[] {
  return parse(text).diagnostics;
}
