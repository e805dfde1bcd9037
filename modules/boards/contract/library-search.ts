/**
 * Whether a saved query matches a library search (docs/boards.md, "The query library"): plain
 * TypeScript without zod, so the explorer and the pickers search in the browser without loading the
 * schemas (docs/architecture.md, "What the browser loads"); the server filters with it too.
 */
interface LibrarySearch {
  /** Every word in the title, the description or a tag, any case. */
  q?: string;
  /** One tag exactly (lower-case). */
  tag?: string;
}

export function matchesSearch(query: { title: string; description: string; tags: readonly string[] }, search: LibrarySearch): boolean {
  if (search.tag && !query.tags.includes(search.tag)) return false;
  const words = (search.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${query.title}\n${query.description}\n${query.tags.join("\n")}`.toLowerCase();
  return words.every((word) => text.includes(word));
}
