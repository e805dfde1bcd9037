/** KQL's strings functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, type FunctionEntry } from "./entry";

export const STRINGS: readonly FunctionEntry[] = [
  documented("scalar", "strlen", "strlen(s): long — characters"),
  documented("scalar", "tolower", "tolower(s): string — the text in lower case"),
  documented("scalar", "toupper", "toupper(s): string — the text in upper case"),
  documented("scalar", "strcat", "strcat(a, b, …): string — the texts joined"),
  documented("scalar", "strcat_delim", "strcat_delim(Delimiter, a, b, …): string — the texts joined with a delimiter"),
  documented("scalar", "split", "split(s, Delimiter [, Index]): dynamic array — the text split at each delimiter"),
  documented("scalar", "extract", "extract(Regex, Group, s [, typeof(T)]) — the regex group's match in the text"),
  documented("scalar", "extract_all", "extract_all(Regex, s): dynamic array — every match of the regex's groups"),
  documented("scalar", "substring", "substring(s, Start [, Length]): string — part of the text from Start (0-based)"),
  documented("scalar", "replace_string", "replace_string(s, Lookup, Rewrite): string — every occurrence of Lookup replaced"),
  documented("scalar", "replace_regex", "replace_regex(s, Regex, Rewrite): string — every regex match replaced"),
  documented("scalar", "trim", "trim(Regex, s): string — the regex removed from both ends"),
  documented("scalar", "trim_start", "trim_start(Regex, s): string — the regex removed from the start"),
  documented("scalar", "trim_end", "trim_end(Regex, s): string — the regex removed from the end"),
  documented("scalar", "indexof", "indexof(s, Lookup [, Start]): long (-1 if absent) — where Lookup first occurs in the text"),
  documented("scalar", "reverse", "reverse(s): string — the text reversed"),
  documented("scalar", "countof", "countof(s, Lookup): long — how often Lookup occurs in the text"),
  documented("scalar", "strrep", "strrep(s, N [, Delimiter]): string — the text repeated N times"),
  documented("scalar", "string_size", "string_size(s): long — bytes"),
];
