"use client";

/**
 * Stock levels of a plant: find a part (search, short-only), see its level, unit and shortage,
 * submit a new count (typed the reader's way, asked about when it jumps more than tenfold), correct
 * a wrong count, and follow the level over time; without a chosen part, the plant's short parts
 * with their last count. Numbers and times are in the reader's language and zone. The chosen part,
 * search and filter are in the URL.
 */
import dynamic from "next/dynamic";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DraftNotice } from "@/components/ui/draft-notice";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { ApiError, apiSend, errorMessage } from "@/lib/client/api";
import { readDraft, useFormDraft, writeDraft } from "@/lib/client/drafts";
import { useFormat, type Format } from "@/lib/client/format";
import { preloadMaintenanceContract } from "@/lib/client/lazy-contract";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceClient, maintenanceKeys, useParts } from "@/modules/maintenance/client/maintenance";
import { useCan } from "@/lib/client/me";
import { mergeParams, useUrlState } from "@/lib/client/url-state";
import type { TWriteResult } from "@/lib/contract/common";
import type { TPart, TStockLevelEntry } from "@/modules/maintenance/contract/maintenance";
import { COUNTED_UNITS } from "@/lib/contract/vocabulary";
import { ReorderForm } from "./reorder-form";
import { correctionPrefix, corrections, plausibility, readableRemark, toStockLevel, validateStockForm, type Implausible, type StockFormErrors, type StockFormValues } from "./stock-form";

// recharts is loaded with the chart, not with the page: it is most of the page's JavaScript.
const StockChart = dynamic(() => import("./stock-chart").then((m) => m.StockChart), {
  ssr: false,
  loading: () => <Skeleton className="h-64 w-full" />,
});

const MAX_LISTED = 200;

export function StockLevels({ plantId }: { plantId: string }) {
  const { params, get, update } = useUrlState();
  const format = useFormat();
  const search = get("q");
  const shortOnly = get("short") === "1";
  const partId = get("part");
  const parts = useParts(plantId);

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (parts.data ?? []).filter((part) => (!shortOnly || part.isShort) && (!needle || `${part.id} ${part.name}`.toLowerCase().includes(needle)));
  }, [parts.data, search, shortOnly]);
  const selected = parts.data?.find((part) => part.id === partId);
  const shortParts = useMemo(() => (parts.data ?? []).filter((part) => part.isShort), [parts.data]);
  // Below the wide layout the list stands above the detail: a chosen part's detail is brought into view.
  const detail = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (partId && window.matchMedia("(max-width: 1023.98px)").matches) detail.current?.scrollIntoView({ block: "start" });
  }, [partId]);

  return (
    <div className="space-y-5">
      <PageHeader
        title="Stock levels"
        description={
          parts.data
            ? `${format.number(parts.data.length)} spare parts at plant ${plantId}, ${format.number(shortParts.length)} short`
            : `Spare parts at plant ${plantId}`
        }
      />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[22rem_1fr]">
        <Card aria-labelledby="parts-title" className="flex max-h-[calc(100dvh-12rem)] min-h-80 flex-col">
          <div className="space-y-3 border-b border-line p-3">
            <h2 id="parts-title" className="sr-only">
              Parts
            </h2>
            <Field label="Find a part">
              {(control) => (
                <Input {...control} type="search" placeholder="Name or part id" defaultValue={search} onChange={(event) => update({ q: event.target.value }, { replace: true })} />
              )}
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={shortOnly} onChange={(event) => update({ short: event.target.checked ? "1" : null })} className="h-4 w-4 accent-accent" />
              Short parts only
            </label>
          </div>
          {parts.error ? (
            <ErrorState error={parts.error} onRetry={() => void parts.refetch()} />
          ) : parts.isPending ? (
            <div role="status" className="space-y-2 p-3">
              <span className="sr-only">Loading parts…</span>
              {Array.from({ length: 8 }, (_, index) => (
                <Skeleton key={index} className="h-10 w-full" />
              ))}
            </div>
          ) : filtered.length === 0 ? (
            <EmptyState title="No part matches">Try another name or clear the short-only filter.</EmptyState>
          ) : (
            <ul className="min-h-0 flex-1 divide-y divide-line overflow-y-auto" aria-label={`${filtered.length} parts`} data-testid="part-list">
              {filtered.slice(0, MAX_LISTED).map((part) => (
                <li key={part.id}>
                  <Link
                    href={`?${mergeParams(new URLSearchParams(params.toString()), { part: part.id }, true)}`}
                    scroll={false}
                    aria-current={part.id === partId ? "true" : undefined}
                    className={cn("flex items-center justify-between gap-3 px-3 py-2 text-sm hover:bg-surface-2", part.id === partId && "bg-accent-soft")}
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{part.name}</span>
                      <span className="block text-xs text-fg-muted">{part.id}</span>
                    </span>
                    <span className="flex shrink-0 flex-col items-end gap-0.5">
                      <span className="tabular-nums">
                        {format.number(part.quantity)} {part.unit}
                      </span>
                      {part.isShort ? <Badge tone="danger">Short</Badge> : null}
                    </span>
                  </Link>
                </li>
              ))}
              {filtered.length > MAX_LISTED ? <li className="px-3 py-2 text-xs text-fg-muted">{format.number(filtered.length - MAX_LISTED)} more: refine the search.</li> : null}
            </ul>
          )}
        </Card>

        <div ref={detail} className="min-w-0 scroll-mt-4 space-y-5">
          {!partId ? (
            <ShortParts plantId={plantId} parts={shortParts} loading={parts.isPending} error={parts.error} format={format} linkFor={(id) => `?${mergeParams(new URLSearchParams(params.toString()), { part: id }, true)}`} />
          ) : parts.isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : !selected ? (
            <Card>
              <EmptyState title="Part not found">There is no part {partId} at plant {plantId}.</EmptyState>
            </Card>
          ) : (
            <PartDetail key={selected.id} plantId={plantId} part={selected} format={format} />
          )}
        </div>
      </div>
    </div>
  );
}

/** The plant's short parts with their last count and how much to order: the planner's "To order" list. */
function ShortParts({ plantId, parts, loading, error, format, linkFor }: { plantId: string; parts: TPart[]; loading: boolean; error: unknown; format: Format; linkFor: (partId: string) => string }) {
  const sorted = useMemo(() => [...parts].sort((a, b) => a.name.localeCompare(b.name)), [parts]);
  return (
    <Card aria-labelledby="short-title">
      <CardHeader
        id="short-title"
        title={`To order at plant ${plantId}`}
        description={
          error
            ? "Not available: the parts could not be read (see beside)."
            : loading
              ? "Loading…"
              : `${format.number(parts.length)} ${parts.length === 1 ? "part is" : "parts are"} below the reorder level, with the quantity to order. Pick one to record a count.`
        }
      />
      {error ? null : loading ? (
        <TableSkeleton rows={6} columns={4} />
      ) : parts.length === 0 ? (
        <EmptyState title="Nothing is short">Every part is at or above its reorder level.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="short-parts">
            <caption className="sr-only">Short parts with their last count</caption>
            <thead className="bg-surface-2 text-left text-fg-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">
                  Part
                </th>
                <th scope="col" className="px-4 py-2 text-right font-semibold">
                  Last count
                </th>
                <th scope="col" className="px-4 py-2 text-right font-semibold">
                  Reorder level
                </th>
                <th scope="col" className="px-4 py-2 text-right font-semibold">
                  To order
                </th>
                <th scope="col" className="hidden px-4 py-2 font-semibold xl:table-cell">
                  Counted
                </th>
                <th scope="col" className="hidden px-4 py-2 font-semibold 2xl:table-cell">
                  Remark
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((part) => (
                <tr key={part.id} className="border-t border-line">
                  <td className="px-4 py-2">
                    <Link href={linkFor(part.id)} scroll={false} className="font-medium text-accent hover:underline">
                      {part.name}
                    </Link>
                    <span className="block text-xs text-fg-muted">{part.id}</span>
                  </td>
                  <td className="px-4 py-2 text-right whitespace-nowrap tabular-nums">
                    {format.number(part.quantity)} {part.unit}
                  </td>
                  <td className="px-4 py-2 text-right whitespace-nowrap tabular-nums">{part.reorderLevel != null ? `${format.number(part.reorderLevel)} ${part.unit}` : "—"}</td>
                  <td className="px-4 py-2 text-right font-semibold whitespace-nowrap tabular-nums" data-testid={`to-order-${part.id}`}>
                    {part.reorderQuantity != null ? `${format.number(part.reorderQuantity)} ${part.unit}` : "—"}
                  </td>
                  <td className="hidden px-4 py-2 whitespace-nowrap xl:table-cell">{format.dateTime(part.updatedAt)}</td>
                  <td className="hidden px-4 py-2 text-fg-muted 2xl:table-cell">{part.remark ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** History rows shown before "Show all". */
const HISTORY_SHOWN = 10;

function PartDetail({ plantId, part, format }: { plantId: string; part: TPart; format: Format }) {
  const history = useQuery({
    queryKey: maintenanceKeys.stockHistory(plantId, part.id),
    queryFn: ({ signal }) => maintenanceClient.stockHistory(plantId, part.id, signal),
  });
  const canSubmit = useCan("stock:submit");
  const canReorder = useCan("parts:reorder");
  const [correcting, setCorrectingState] = useState<TStockLevelEntry | null>(null);
  // Which count is being corrected is kept beside the form's draft, so a correction comes back
  // after an expired session too (once the history it refers to is read).
  const pointer = correctionPointerKey(plantId, part.id);
  const setCorrecting = (entry: TStockLevelEntry | null) => {
    writeDraft(pointer, entry ? { values: entry.submittedAt, attemptId: "", savedAt: new Date().toISOString(), sending: false } : null);
    setCorrectingState(entry);
  };
  const [pendingCorrection, setPendingCorrection] = useState(() => readDraft<string>(pointer)?.values ?? null);
  if (pendingCorrection && history.data) {
    setPendingCorrection(null);
    setCorrectingState(history.data.find((entry) => entry.submittedAt === pendingCorrection) ?? null);
  }
  // Kept here: a finished correction remounts the form, and its result must stay in view.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [showAll, setShowAll] = useState(false);
  const corrected = useMemo(() => corrections(history.data ?? []), [history.data]);
  const rows = history.data ? (showAll ? history.data : history.data.slice(0, HISTORY_SHOWN)) : [];

  return (
    <>
      <Card aria-labelledby="part-title">
        <CardHeader id="part-title" title={part.name} description={`Part ${part.id}`} actions={part.isShort ? <Badge tone="danger">Short</Badge> : <Badge tone="success">In stock</Badge>} />
        <CardBody className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Figure label="Current level" value={<span data-testid="part-level">{format.number(part.quantity)}</span>} />
          <Figure label="Unit" value={part.unit} />
          <Figure label="Shortage" value={part.isShort ? <span className="text-danger">Short</span> : <span className="text-success">No</span>} />
          <Figure label="Last counted" value={format.dateTime(part.updatedAt)} />
          {part.reorderLevel != null ? <Figure label="Reorder level" value={<span data-testid="part-reorder-level">{`${format.number(part.reorderLevel)} ${part.unit}`}</span>} /> : null}
          {part.reorderQuantity != null ? (
            <Figure
              label={part.isShort ? "To order now" : "Reorder quantity"}
              value={<span className={part.isShort ? "text-danger" : undefined}>{`${format.number(part.reorderQuantity)} ${part.unit}`}</span>}
            />
          ) : null}
          {part.remark ? <p className="col-span-full text-sm text-fg-muted wrap-anywhere">Remark: {readableRemark(part.remark, format.dateTime, format.number)}</p> : null}
        </CardBody>
      </Card>

      {canSubmit ? (
        <StockLevelForm
          key={correcting?.submittedAt ?? "count"}
          plantId={plantId}
          part={part}
          history={history.data}
          format={format}
          correcting={correcting}
          onDone={() => setCorrecting(null)}
          outcome={outcome}
          setOutcome={setOutcome}
        />
      ) : null}

      {/* A service without the extension sends no reorder level: nothing to edit then. */}
      {canReorder && part.reorderLevel !== undefined ? <ReorderForm key={part.id} plantId={plantId} part={part} format={format} /> : null}

      <Card aria-labelledby="history-title">
        <CardHeader id="history-title" title="Level over time" description={history.data ? `${format.number(history.data.length)} counts recorded` : history.error ? "Not available" : "Loading…"} />
        <CardBody>
          {history.error ? (
            <ErrorState error={history.error} onRetry={() => void history.refetch()} />
          ) : !history.data ? (
            <Skeleton className="h-64 w-full" />
          ) : history.data.length === 0 ? (
            <EmptyState title="No counts yet">This part has no stock-level history.</EmptyState>
          ) : (
            <>
              {/* Corrected counts were wrong: the line leaves them out (the table keeps them). */}
              <StockChart history={history.data.filter((entry) => !corrected.has(entry.submittedAt))} unit={part.unit} reorderLevel={part.reorderLevel} />
              {/* On a phone the history is wider than the screen: it scrolls in its own box, not the page
                  (`relative`: the visually hidden texts in it are placed, and clipped, inside the box). */}
              <div className="relative mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label={`Latest counts of ${part.name}`}>
                <table className="w-full text-sm">
                  <caption className="sr-only">Latest counts of {part.name}</caption>
                  <thead className="text-left text-fg-muted">
                    <tr>
                      <th scope="col" className="py-1 pr-2 font-medium">
                        When
                      </th>
                      <th scope="col" className="py-1 pr-2 text-right font-medium">
                        Level
                      </th>
                      <th scope="col" className="py-1 pr-2 font-medium">
                        Short
                      </th>
                      <th scope="col" className="py-1 pr-2 font-medium">
                        Counted by
                      </th>
                      <th scope="col" className="py-1 pr-2 font-medium">
                        Remark
                      </th>
                      {canSubmit ? (
                        <th scope="col" className="py-1 font-medium">
                          <span className="sr-only">Actions</span>
                        </th>
                      ) : null}
                    </tr>
                  </thead>
                  <tbody data-testid="stock-history">
                    {rows.map((entry) => {
                      const fixedBy = corrected.get(entry.submittedAt);
                      return (
                        <tr key={`${entry.submittedAt}-${entry.quantity}`} className={cn("border-t border-line", fixedBy && "text-fg-muted")} data-corrected={fixedBy ? "true" : undefined}>
                          <td className="py-1.5 pr-2 whitespace-nowrap">{format.dateTime(entry.submittedAt)}</td>
                          <td className={cn("py-1.5 pr-2 text-right whitespace-nowrap tabular-nums", fixedBy && "line-through")}>
                            {format.number(entry.quantity)} {entry.unit}
                          </td>
                          <td className="py-1.5 pr-2">{entry.isShort ? "Yes" : "No"}</td>
                          <td className="py-1.5 pr-2 wrap-anywhere">{entry.countedBy ? entry.countedBy.replace(/\s*<[^>]*>$/, "") : "—"}</td>
                          <td className="py-1.5 pr-2 text-fg-muted wrap-anywhere">
                            {fixedBy ? (
                              <Badge tone="warning" className="mr-1">
                                Corrected {format.dateTime(fixedBy.submittedAt)}
                              </Badge>
                            ) : null}
                            {readableRemark(entry.remark, format.dateTime, format.number) ?? "—"}
                          </td>
                          {canSubmit ? (
                            <td className="py-1.5 text-right">
                              {fixedBy ? null : (
                                <Button
                                  size="sm"
                                  variant="ghost"
                                  onClick={() => {
                                    setOutcome(null);
                                    setCorrecting(entry);
                                  }} aria-label={`Correct the count of ${format.dateTime(entry.submittedAt)}`}>
                                  Correct
                                </Button>
                              )}
                            </td>
                          ) : null}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              {history.data.length > HISTORY_SHOWN ? (
                <Button size="sm" variant="ghost" className="mt-2" onClick={() => setShowAll((value) => !value)}>
                  {showAll ? "Show the latest only" : `Show all ${format.number(history.data.length)} counts`}
                </Button>
              ) : null}
            </>
          )}
        </CardBody>
      </Card>
    </>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <p className="text-xs text-fg-muted">{label}</p>
      <p className="mt-0.5 text-xl font-semibold tabular-nums">{value}</p>
    </div>
  );
}

const correctionPointerKey = (plantId: string, partId: string) => `plantdesk:stock-correcting:${plantId}:${partId}`;

type Outcome = { ok: true; text: string } | { ok: false; code: string; text: string };

function StockLevelForm({
  plantId,
  part,
  history,
  format,
  correcting,
  onDone,
  outcome,
  setOutcome,
}: {
  plantId: string;
  part: TPart;
  history: TStockLevelEntry[] | undefined;
  format: Format;
  /** The count being corrected, if this is a correction. */
  correcting: TStockLevelEntry | null;
  onDone: () => void;
  outcome: Outcome | null;
  setOutcome: (outcome: Outcome | null) => void;
}) {
  const queryClient = useQueryClient();
  const empty = (): StockFormValues => ({ quantity: "", unit: part.unit, remark: "", isShort: "auto" });
  const draft = useFormDraft<StockFormValues>(`plantdesk:stock-count:${plantId}:${part.id}:${correcting?.submittedAt ?? "new"}`, empty, (values) => Boolean(values.quantity || values.remark));
  const { values, setValues } = draft;
  const [errors, setErrors] = useState<StockFormErrors>({});
  const [doubt, setDoubt] = useState<(Implausible & { quantity: number }) | null>(null);
  useEffect(preloadMaintenanceContract, []);
  const submit = useMutation({
    mutationFn: (body: ReturnType<typeof toStockLevel>) =>
      apiSend<TWriteResult>("PUT", operationApiPath("submitStockLevel", { plantId, partId: part.id }), body),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.parts(plantId) }),
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.stockHistory(plantId, part.id) }),
      ]),
  });
  const prefix = correcting ? correctionPrefix(correcting) : "";
  // Counted items take whole numbers only (the shared schema refuses 2.5 PCS): the example and the
  // phone's keyboard must not suggest a decimal the check then refuses.
  const whole = COUNTED_UNITS.includes(part.unit);
  const example = format.number(whole ? 12 : 12.5);
  // A correction is started from the history below: bring its form into view with the keyboard in it.
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!correcting) return;
    card.current?.scrollIntoView({ block: "center" });
    card.current?.querySelector<HTMLInputElement>("input[inputmode]")?.focus({ preventScroll: true });
  }, [correcting]);

  const set = (field: keyof StockFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    if (field === "quantity") setDoubt(null);
  };

  async function save(confirmed: boolean) {
    draft.dismissRestored();
    setOutcome(null);
    const found = await validateStockForm(part.id, values, format.locale, example, prefix);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = toStockLevel(part.id, values, format.locale, prefix);
    // A jump of more than tenfold is asked about once before it is saved (a correction compares
    // with the counts before the one it corrects).
    const compareWith = (history ?? []).filter((entry) => entry.submittedAt !== correcting?.submittedAt);
    const implausible = confirmed ? null : plausibility(body.quantity, compareWith);
    if (implausible) {
      setDoubt({ ...implausible, quantity: body.quantity });
      return;
    }
    setDoubt(null);
    try {
      draft.sending();
      await submit.mutateAsync(body);
      setOutcome({ ok: true, text: `${format.number(body.quantity)} ${body.unit} recorded for ${part.name}${correcting ? `, correcting the count of ${format.dateTime(correcting.submittedAt)}` : ""}.` });
      setValues(empty());
      draft.sent();
      if (correcting) onDone();
    } catch (error) {
      draft.failed(error);
      if (error instanceof ApiError && error.code === "UNIT_MISMATCH") setErrors({ unit: error.message });
      setOutcome({ ok: false, code: error instanceof ApiError ? error.code : "ERROR", text: errorMessage(error) });
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save(false);
  }

  return (
    <div ref={card} className="scroll-mt-4">
    <Card aria-labelledby="count-title">
      <CardHeader
        id="count-title"
        title={correcting ? "Correct a count" : "Record a count"}
        description={
          correcting
            ? `The count of ${format.dateTime(correcting.submittedAt)} (${format.number(correcting.quantity)} ${correcting.unit}) was wrong: the correction becomes the current level, and its remark names that count.`
            : "The new level replaces the current one and is kept in the history."
        }
        actions={
          correcting ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                // Cancelling is deciding against it: the kept draft goes too, or it would come back.
                draft.discard();
                onDone();
              }}
            >
              Cancel correction
            </Button>
          ) : null
        }
      />
      <form noValidate onSubmit={onSubmit} className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 xl:grid-cols-4">
        {draft.restored ? (
          <div className="sm:col-span-2 xl:col-span-4">
            <DraftNotice
              what={correcting ? "correction" : "count"}
              sending={draft.restored.sending}
              resendNote="sending the same count again only repeats it in the history"
              onSend={() => void save(false)}
              onDiscard={draft.discard}
            />
          </div>
        ) : null}
        <Field label={correcting ? "Correct quantity" : "Quantity"} error={errors.quantity} hint={whole ? `Whole items, for example ${example}` : `For example ${example}`}>
          {(control) => <Input {...control} inputMode={whole ? "numeric" : "decimal"} autoComplete="off" value={values.quantity} onChange={(event) => set("quantity")(event.target.value)} />}
        </Field>
        <Field label="Unit" error={errors.unit} hint={`This part is always counted in ${part.unit}`}>
          {(control) => <Input {...control} readOnly aria-readonly="true" className="bg-surface-2" value={part.unit} />}
        </Field>
        <Field label="Shortage" hint="Automatic: short when below the reorder level">
          {(control) => (
            <Select
              {...control}
              value={values.isShort}
              onChange={(event) => set("isShort")(event.target.value)}
              options={[
                { value: "auto", label: "Automatic" },
                { value: "yes", label: "Short" },
                { value: "no", label: "Not short" },
              ]}
            />
          )}
        </Field>
        <Field label={correcting ? "Why it was wrong" : "Remark"} error={errors.remark} className="sm:col-span-2 xl:col-span-1">
          {(control) => <Textarea {...control} className="min-h-10" rows={1} maxLength={1000 - prefix.length - 2} value={values.remark} onChange={(event) => set("remark")(event.target.value)} />}
        </Field>
        {doubt ? (
          <div role="alert" className="rounded-md border border-warning bg-warning-soft p-3 text-sm text-warning sm:col-span-2 xl:col-span-4" data-testid="stock-plausibility">
            <p className="font-semibold">
              {format.number(doubt.quantity)} {values.unit} is {doubt.direction === "up" ? "more than ten times" : "less than a tenth of"} the count of {format.dateTime(doubt.reference.submittedAt)} ({format.number(doubt.reference.quantity)} {doubt.reference.unit}).
            </p>
            <p className="mt-1">Check the number (a digit too many, a decimal mark?) before saving it.</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button size="sm" variant="primary" onClick={() => void save(true)}>
                Save anyway
              </Button>
              <Button size="sm" onClick={() => setDoubt(null)}>
                Change the count
              </Button>
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2 xl:col-span-4">
          <Button type="submit" variant="primary" disabled={submit.isPending}>
            {submit.isPending ? "Saving…" : correcting ? "Save correction" : "Save count"}
          </Button>
          <div role="status" aria-live="polite" className="min-w-0 flex-1">
            {outcome ? (
              <p
                data-testid="stock-outcome"
                className={cn("rounded-md px-3 py-2 text-sm font-medium", outcome.ok ? "bg-success-soft text-success" : "bg-danger-soft text-danger")}
              >
                {outcome.ok ? "✓ " : "✗ Not saved: "}
                {outcome.text}
              </p>
            ) : null}
          </div>
        </div>
      </form>
    </Card>
    </div>
  );
}
