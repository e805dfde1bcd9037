"use client";
/**
 * "From the library": a search over the plant's saved queries that fills a query box with the one
 * picked (the panel editor, the monitor editor). The text is copied: a later change to the saved
 * query does not change the panel or monitor (docs/boards.md, "The query library").
 */
import { useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { errorMessage } from "@/lib/client/api";
import type { TSavedQuery } from "@/modules/boards/contract/saved-queries";
import { matchesSearch } from "@/modules/boards/contract/library-search";
import { savedQueriesApi, savedQueryKeys, useSavedQueries } from "@/modules/boards/client/saved-queries";

export function LibraryPicker({ plantId, onPick }: { plantId: string; onPick: (saved: TSavedQuery) => void }) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const client = useQueryClient();
  const library = useSavedQueries(plantId, open);
  const listId = useId();
  const found = (library.data?.data ?? []).filter((saved) => matchesSearch(saved, { q: search }));
  const pick = (saved: TSavedQuery) => {
    onPick(saved);
    setOpen(false);
    // "Last run" says it was taken from the library; a failure to record that changes nothing else.
    void savedQueriesApi
      .ran(plantId, saved.id)
      .then(() => client.invalidateQueries({ queryKey: savedQueryKeys.all(plantId) }))
      .catch(() => undefined);
  };
  return (
    <div className="space-y-2">
      <Button size="sm" aria-expanded={open} aria-controls={open ? listId : undefined} onClick={() => setOpen((was) => !was)}>
        {open ? "Close the library" : "From the library"}
      </Button>
      {open ? (
        <div id={listId} className="space-y-2 rounded-md border border-line bg-surface p-2" role="group" aria-label="Pick a saved query">
          <Input aria-label="Search the library by title or tag" placeholder="Search by title or tag" value={search} maxLength={120} onChange={(event) => setSearch(event.target.value)} />
          {library.isPending ? (
            <p role="status" className="text-sm text-fg-muted">
              Loading the library…
            </p>
          ) : library.isError ? (
            <p role="alert" className="text-sm text-danger">
              Could not load the library: {errorMessage(library.error)}
            </p>
          ) : found.length === 0 ? (
            <p className="text-sm text-fg-muted">{library.data.data.length === 0 ? "The library is empty: save a query from the explorer." : "No saved query matches."}</p>
          ) : (
            <ul className="max-h-60 space-y-1 overflow-auto">
              {found.map((saved) => (
                <li key={saved.id}>
                  <button type="button" className="w-full rounded px-2 py-1.5 text-left text-sm hover:bg-surface-2 focus-visible:bg-surface-2" onClick={() => pick(saved)}>
                    <span className="block font-medium wrap-anywhere">Use “{saved.title}”</span>
                    {saved.tags.length > 0 ? <span className="block text-xs text-fg-muted">{saved.tags.map((tag) => `#${tag}`).join(" ")}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
