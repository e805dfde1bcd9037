"use client";
/**
 * The plant's team library of saved queries beside the explorer (docs/boards.md, "The query
 * library"): search by title or tag, open one in the editor, save the editor's query with a title,
 * a description and tags; its owner and admins change or delete it. Each entry's link names it by
 * id (`?savedQuery=<id>`), so a link keeps working after a rename.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input, Textarea } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { useFormat } from "@/lib/client/format";
import type { TSavedQuery, TSavedQueryBody } from "@/modules/boards/contract/saved-queries";
import { matchesSearch } from "@/modules/boards/contract/library-search";
import { parseTags, SAVED_QUERY_PARAM, savedQueriesApi, savedQueryKeys, useSavedQueries } from "@/modules/boards/client/saved-queries";

type FormState = { editing: TSavedQuery | null; title: string; description: string; tags: string; replaceQuery: boolean };

export function QueryLibrary({ plantId, currentQuery, pathname, onOpen }: { plantId: string; currentQuery: string; pathname: string; onOpen: (saved: TSavedQuery) => void }) {
  const format = useFormat();
  const client = useQueryClient();
  const library = useSavedQueries(plantId);
  const [search, setSearch] = useState("");
  const [form, setForm] = useState<FormState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: savedQueryKeys.all(plantId) });
  // Closing the form (saved or cancelled) unmounts the focused field: the focus goes back to the
  // button that opened it, not to the page's body (a keyboard user would start over from the top).
  const openButton = useRef<HTMLButtonElement>(null);
  const focusOpenButton = useRef(false);
  const closeForm = () => {
    focusOpenButton.current = true;
    setForm(null);
  };
  useEffect(() => {
    if (form || !focusOpenButton.current) return;
    focusOpenButton.current = false;
    openButton.current?.focus();
  }, [form]);

  const save = useMutation({
    mutationFn: (next: FormState) => {
      const body: TSavedQueryBody = {
        title: next.title.trim(),
        description: next.description.trim(),
        tags: parseTags(next.tags),
        query: next.editing && !next.replaceQuery ? next.editing.query : currentQuery,
      };
      return next.editing ? savedQueriesApi.save(plantId, next.editing.id, body) : savedQueriesApi.create(plantId, body);
    },
    onSuccess: (saved) => {
      setNotice(`Saved “${saved.title}” to the library.`);
      closeForm();
      void refresh();
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  const remove = useMutation({
    mutationFn: (saved: TSavedQuery) => savedQueriesApi.remove(plantId, saved.id),
    onSuccess: () => {
      setConfirmDelete(null);
      setNotice("Deleted from the library.");
      void refresh();
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!form) return;
    if (!form.title.trim()) return setProblem("Give the query a title.");
    if (!form.editing && !currentQuery.trim()) return setProblem("The editor is empty: write a query first.");
    save.mutate(form);
  };
  const found = (library.data?.data ?? []).filter((saved) => matchesSearch(saved, { q: search }));

  return (
    <Card className="p-4" aria-labelledby="library-title">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="library-title" className="text-base font-semibold">
          Team library
        </h2>
        {!form ? (
          <Button
            ref={openButton}
            size="sm"
            onClick={() => {
              setProblem(null);
              setNotice(null);
              setForm({ editing: null, title: "", description: "", tags: "", replaceQuery: true });
            }}
          >
            Save to library
          </Button>
        ) : null}
      </div>
      {form ? (
        <form onSubmit={submit} className="mb-3 space-y-2 rounded-md border border-line p-2" aria-label={form.editing ? `Edit saved query ${form.editing.title}` : "Save the editor's query to the library"}>
          <Field label="Title">{(control) => <Input {...control} value={form.title} maxLength={120} onChange={(event) => setForm({ ...form, title: event.target.value })} />}</Field>
          <Field label="Description">{(control) => <Textarea {...control} className="min-h-16" value={form.description} maxLength={1000} onChange={(event) => setForm({ ...form, description: event.target.value })} />}</Field>
          <Field label="Tags" hint="Comma-separated, e.g. pumps, line 2">
            {(control) => <Input {...control} value={form.tags} maxLength={400} onChange={(event) => setForm({ ...form, tags: event.target.value })} />}
          </Field>
          {form.editing ? (
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-1" checked={form.replaceQuery} onChange={(event) => setForm({ ...form, replaceQuery: event.target.checked })} />
              Replace its query with the editor&apos;s
            </label>
          ) : (
            <p className="text-xs text-fg-muted">Saves the query in the editor, shared with everyone at plant {plantId}.</p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" variant="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
            <Button size="sm" onClick={closeForm}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {problem ? (
        <p role="alert" className="mb-2 text-sm font-medium text-danger wrap-anywhere">
          {problem}
        </p>
      ) : null}
      <p role="status" className="text-xs text-fg-muted">
        {notice ?? ""}
      </p>
      <Input aria-label="Search the library by title or tag" placeholder="Search by title or tag" value={search} maxLength={120} onChange={(event) => setSearch(event.target.value)} className="my-2" />
      {library.isPending ? (
        <div role="status" className="flex flex-col gap-2">
          <span className="sr-only">Loading the library…</span>
          <Skeleton className="h-10 w-full" />
        </div>
      ) : library.isError ? (
        <p role="alert" className="text-sm text-danger">
          Could not load the library: {errorMessage(library.error)}
        </p>
      ) : found.length === 0 ? (
        <p className="text-sm text-fg-muted">{library.data.data.length === 0 ? "No saved queries yet: save the editor's query for your team." : "No saved query matches."}</p>
      ) : (
        <ul className="flex max-h-96 flex-col gap-2 overflow-auto" data-testid="query-library" aria-label="Saved queries">
          {found.map((saved) => (
            <li key={saved.id} className="rounded-md border border-line p-2">
              <button type="button" className="w-full rounded text-left hover:underline focus-visible:underline" onClick={() => onOpen(saved)} title={saved.query}>
                <span className="block text-sm font-medium wrap-anywhere">{saved.title}</span>
              </button>
              {saved.description ? <p className="text-xs wrap-anywhere">{saved.description}</p> : null}
              {saved.tags.length > 0 ? <p className="text-xs text-fg-muted">{saved.tags.map((tag) => `#${tag}`).join(" ")}</p> : null}
              <p className="text-xs text-fg-muted wrap-anywhere">
                by {saved.owner} · {saved.lastRunAt ? `last run ${format.dateTime(saved.lastRunAt)}` : "not run yet"}
              </p>
              <div className="mt-1 flex flex-wrap gap-1">
                <a className="rounded px-1 text-xs text-accent underline" href={`${pathname}?${SAVED_QUERY_PARAM}=${saved.id}`} aria-label={`Link to ${saved.title}`}>
                  Link
                </a>
                {saved.canEdit ? (
                  confirmDelete === saved.id ? (
                    <>
                      <Button size="sm" variant="danger" onClick={() => remove.mutate(saved)} disabled={remove.isPending}>
                        Delete for everyone
                      </Button>
                      <Button size="sm" onClick={() => setConfirmDelete(null)}>
                        Keep it
                      </Button>
                    </>
                  ) : (
                    <>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit ${saved.title}`}
                        onClick={() => {
                          setProblem(null);
                          setForm({ editing: saved, title: saved.title, description: saved.description, tags: saved.tags.join(", "), replaceQuery: false });
                        }}
                      >
                        Edit
                      </Button>
                      <Button size="sm" variant="ghost" aria-label={`Delete ${saved.title}`} onClick={() => setConfirmDelete(saved.id)}>
                        Delete
                      </Button>
                    </>
                  )
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
