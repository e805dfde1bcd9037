"use client";

/**
 * Stock levels of a plant: find a part (search, short-only), see its level, unit and shortage,
 * submit a new count, and follow its level over time. The chosen part, search and filter are in
 * the URL.
 */
import dynamic from "next/dynamic";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { ApiError, apiSend, errorMessage } from "@/lib/client/api";
import { formatDate } from "@/lib/client/dates";
import { maintenanceApi, maintenanceKeys, plantApiPath, useParts } from "@/lib/client/maintenance";
import { useCan } from "@/lib/client/me";
import { mergeParams, useUrlState } from "@/lib/client/url-state";
import type { TWriteResult } from "@/lib/upstream/schemas/common";
import { STOCK_UNITS, type TPart } from "@/lib/upstream/schemas/maintenance";
import { toStockLevel, validateStockForm, type StockFormErrors, type StockFormValues } from "./stock-form";

// recharts is loaded with the chart, not with the page: it is most of the page's JavaScript.
const StockChart = dynamic(() => import("./stock-chart").then((m) => m.StockChart), {
  ssr: false,
  loading: () => <Skeleton className="h-64 w-full" />,
});

const MAX_LISTED = 200;

export function StockLevels({ plantId }: { plantId: string }) {
  const { params, get, update } = useUrlState();
  const search = get("q");
  const shortOnly = get("short") === "1";
  const partId = get("part");
  const parts = useParts(plantId);

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (parts.data ?? []).filter((part) => (!shortOnly || part.isShort) && (!needle || `${part.id} ${part.name}`.toLowerCase().includes(needle)));
  }, [parts.data, search, shortOnly]);
  const selected = parts.data?.find((part) => part.id === partId);
  const shortCount = parts.data?.filter((part) => part.isShort).length;

  return (
    <div className="space-y-5">
      <PageHeader
        title="Stock levels"
        description={
          parts.data
            ? `${parts.data.length.toLocaleString("en")} spare parts at plant ${plantId}, ${shortCount?.toLocaleString("en")} short`
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
            <div className="space-y-2 p-3">
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
                        {part.quantity} {part.unit}
                      </span>
                      {part.isShort ? <Badge tone="danger">Short</Badge> : null}
                    </span>
                  </Link>
                </li>
              ))}
              {filtered.length > MAX_LISTED ? <li className="px-3 py-2 text-xs text-fg-muted">{filtered.length - MAX_LISTED} more: refine the search.</li> : null}
            </ul>
          )}
        </Card>

        <div className="min-w-0 space-y-5">
          {!partId ? (
            <Card>
              <EmptyState title="Choose a part">Pick a part on the left to see its level, record a new count and follow its history.</EmptyState>
            </Card>
          ) : parts.isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : !selected ? (
            <Card>
              <EmptyState title="Part not found">There is no part {partId} at plant {plantId}.</EmptyState>
            </Card>
          ) : (
            <PartDetail key={selected.id} plantId={plantId} part={selected} />
          )}
        </div>
      </div>
    </div>
  );
}

function PartDetail({ plantId, part }: { plantId: string; part: TPart }) {
  const history = useQuery({
    queryKey: maintenanceKeys.stockHistory(plantId, part.id),
    queryFn: ({ signal }) => maintenanceApi.stockHistory(plantId, part.id, signal),
  });
  const canSubmit = useCan("stock:submit");

  return (
    <>
      <Card aria-labelledby="part-title">
        <CardHeader id="part-title" title={part.name} description={`Part ${part.id}`} actions={part.isShort ? <Badge tone="danger">Short</Badge> : <Badge tone="success">In stock</Badge>} />
        <CardBody className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Figure label="Current level" value={<span data-testid="part-level">{part.quantity.toLocaleString("en")}</span>} />
          <Figure label="Unit" value={part.unit} />
          <Figure label="Shortage" value={part.isShort ? <span className="text-danger">Short</span> : <span className="text-success">No</span>} />
          <Figure label="Last counted" value={formatDate(part.updatedAt)} />
          {part.remark ? <p className="col-span-full text-sm text-fg-muted">Remark: {part.remark}</p> : null}
        </CardBody>
      </Card>

      {canSubmit ? <StockLevelForm plantId={plantId} part={part} /> : null}

      <Card aria-labelledby="history-title">
        <CardHeader id="history-title" title="Level over time" description={history.data ? `${history.data.length} counts recorded` : "Loading…"} />
        <CardBody>
          {history.error ? (
            <ErrorState error={history.error} onRetry={() => void history.refetch()} />
          ) : !history.data ? (
            <Skeleton className="h-64 w-full" />
          ) : history.data.length === 0 ? (
            <EmptyState title="No counts yet">This part has no stock-level history.</EmptyState>
          ) : (
            <>
              <StockChart history={history.data} unit={part.unit} />
              <table className="mt-4 w-full text-sm">
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
                    <th scope="col" className="py-1 font-medium">
                      Remark
                    </th>
                  </tr>
                </thead>
                <tbody data-testid="stock-history">
                  {history.data.slice(0, 8).map((entry) => (
                    <tr key={`${entry.submittedAt}-${entry.quantity}`} className="border-t border-line">
                      <td className="py-1.5 pr-2 whitespace-nowrap">{formatDate(entry.submittedAt)}</td>
                      <td className="py-1.5 pr-2 text-right tabular-nums">
                        {entry.quantity} {entry.unit}
                      </td>
                      <td className="py-1.5 pr-2">{entry.isShort ? "Yes" : "No"}</td>
                      <td className="py-1.5 text-fg-muted">{entry.remark ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
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

type Outcome = { ok: true; text: string } | { ok: false; code: string; text: string };

function StockLevelForm({ plantId, part }: { plantId: string; part: TPart }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<StockFormValues>({ quantity: "", unit: part.unit, remark: "", isShort: "auto" });
  const [errors, setErrors] = useState<StockFormErrors>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const submit = useMutation({
    mutationFn: (body: ReturnType<typeof toStockLevel>) =>
      apiSend<TWriteResult>("PUT", plantApiPath(plantId, `parts/${encodeURIComponent(part.id)}/stock-level`), body),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.parts(plantId) }),
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.stockHistory(plantId, part.id) }),
      ]),
  });

  const set = (field: keyof StockFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const found = validateStockForm(part.id, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = toStockLevel(part.id, values);
    try {
      const result = await submit.mutateAsync(body);
      setOutcome({ ok: true, text: `${result.code}: ${body.quantity} ${body.unit} recorded for ${part.name}.` });
      setValues({ quantity: "", unit: part.unit, remark: "", isShort: "auto" });
    } catch (error) {
      if (error instanceof ApiError && error.code === "UNIT_MISMATCH") setErrors({ unit: error.message });
      setOutcome({ ok: false, code: error instanceof ApiError ? error.code : "ERROR", text: errorMessage(error) });
    }
  }

  return (
    <Card aria-labelledby="count-title">
      <CardHeader id="count-title" title="Record a count" description="The new level replaces the current one and is kept in the history." />
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 xl:grid-cols-4">
        <Field label="Quantity" error={errors.quantity}>
          {(control) => <Input {...control} inputMode="decimal" value={values.quantity} onChange={(event) => set("quantity")(event.target.value)} />}
        </Field>
        <Field label="Unit" error={errors.unit} hint={`This part is counted in ${part.unit}`}>
          {(control) => <Select {...control} value={values.unit} onChange={(event) => set("unit")(event.target.value)} options={STOCK_UNITS.map((unit) => ({ value: unit, label: unit }))} />}
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
        <Field label="Remark" error={errors.remark} className="sm:col-span-2 xl:col-span-1">
          {(control) => <Textarea {...control} className="min-h-10" rows={1} maxLength={1000} value={values.remark} onChange={(event) => set("remark")(event.target.value)} />}
        </Field>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2 xl:col-span-4">
          <Button type="submit" variant="primary" disabled={submit.isPending}>
            {submit.isPending ? "Saving…" : "Save count"}
          </Button>
          <div role="status" aria-live="polite" className="min-w-0 flex-1">
            {outcome ? (
              <p
                data-testid="stock-outcome"
                className={cn("rounded-md px-3 py-2 text-sm font-medium", outcome.ok ? "bg-success-soft text-success" : "bg-danger-soft text-danger")}
              >
                {outcome.ok ? "✓ " : `✗ ${outcome.code}: `}
                {outcome.text}
              </p>
            ) : null}
          </div>
        </div>
      </form>
    </Card>
  );
}
