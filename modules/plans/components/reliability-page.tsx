"use client";
/**
 * The reliability record of a plant or one asset (with its components) over a window of days
 * (`from`, `to`, `asset` in the URL): failures, downtime, MTTR, MTBF and availability from the job
 * records (docs/api.md "Reliability"), a Pareto of failure codes, the assets ranked by failures and
 * the figures per month; CSV of the assets and of the months. A service without the extension
 * (FEATURE_UNAVAILABLE) is said so in words.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { AssetPicker } from "@/components/ui/asset-picker";
import { Card, CardHeader } from "@/components/ui/card";
import { CsvButton } from "@/components/ui/csv-button";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { toCsv } from "@/lib/client/csv";
import { addDays, isIsoDate } from "@/lib/client/dates";
import { useFormat, useToday, type Format } from "@/lib/client/format";
import { useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { useUrlState } from "@/lib/client/url-state";
import type { TReliability, TReliabilityFigures } from "@/modules/maintenance/contract/reliability";
import { RELIABILITY_MAX_DAYS } from "@/lib/contract/vocabulary";
import { isUnavailable, planKeys, plansApi } from "@/modules/plans/client/plans";

function hours(value: number | null, format: Format): string {
  return value === null ? "—" : `${format.number(value, { maximumFractionDigits: 1 })} h`;
}
const percent = (value: number, format: Format) => format.number(value, { style: "percent", maximumFractionDigits: 2 });

export function ReliabilityPage({ plantId }: { plantId: string }) {
  const { get, update } = useUrlState();
  const format = useFormat();
  const today = useToday();
  const labels = useLookupLabels(plantId);
  const to = isIsoDate(get("to")) ? get("to") : today;
  const from = isIsoDate(get("from")) ? get("from") : addDays(to, -364);
  const asset = get("asset");
  const rangeError = from > to ? "The first day must not be after the last." : Date.parse(to) - Date.parse(from) >= RELIABILITY_MAX_DAYS * 86_400_000 ? `The window must be at most ${RELIABILITY_MAX_DAYS} days.` : null;
  const query = { startDate: from, endDate: to, ...(asset ? { assetTagNumber: asset } : {}) };
  const record = useQuery({ queryKey: planKeys.reliability(plantId, query), queryFn: ({ signal }) => plansApi.reliability(plantId, query, signal), enabled: !rangeError });
  const data = record.data;

  if (record.error && isUnavailable(record.error)) {
    return (
      <div className="space-y-5">
        <PageHeader title="Reliability" />
        <Card>
          <EmptyState title="Reliability is not offered here">The maintenance service this console talks to has no reliability record.</EmptyState>
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <PageHeader
        title="Reliability"
        description={`${asset ? `Asset ${asset} and its components` : `Plant ${plantId}`}, ${format.date(from)} – ${format.date(to)} (UTC days): failures are close-outs with a failure code.`}
        actions={data ? <CsvButton filename={`reliability-${plantId}${asset ? `-${asset}` : ""}-${from}-${to}.csv`} build={async () => reliabilityCsv(data)} /> : null}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[10rem_10rem_minmax(0,20rem)]" role="search" aria-label="Reliability window and asset">
        <Field label="From" error={rangeError ?? undefined}>
          {(control) => <Input {...control} type="date" value={from} max={to} onChange={(event) => isIsoDate(event.target.value) && update({ from: event.target.value })} />}
        </Field>
        <Field label="To">
          {(control) => <Input {...control} type="date" value={to} onChange={(event) => isIsoDate(event.target.value) && update({ to: event.target.value })} />}
        </Field>
        <AssetPicker plantId={plantId} value={asset} onChange={(tag) => update({ asset: tag || null })} label="Asset (empty: the whole plant)" placeholder="The whole plant" />
      </div>
      {rangeError ? null : record.error ? (
        <Card>
          <ErrorState error={record.error} title="The reliability record could not be loaded" onRetry={() => void record.refetch()} />
        </Card>
      ) : !data ? (
        <div role="status" className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <span className="sr-only">Loading the reliability record…</span>
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} className="h-20" />
          ))}
        </div>
      ) : (
        <>
          <Figures figures={data.plant} format={format} />
          {data.plant.failures === 0 ? (
            <Card>
              <EmptyState title="No failures in this window">No job record in it carries a failure code: availability is 100 % and MTBF is not defined.</EmptyState>
            </Card>
          ) : (
            <div className="grid grid-cols-1 gap-5 xl:grid-cols-2">
              <Pareto figures={data.plant} format={format} label={(code) => labels.label("failureCode", code)} />
              <Months data={data} format={format} />
            </div>
          )}
          {data.assets.length ? <Assets plantId={plantId} data={data} format={format} onPick={(tag) => update({ asset: tag })} /> : null}
        </>
      )}
      {record.isFetching && data ? <p className="sr-only" role="status">Updating…</p> : null}
    </div>
  );
}

function Figures({ figures, format }: { figures: TReliabilityFigures; format: Format }) {
  const items = [
    { label: "Failures", value: format.number(figures.failures) },
    { label: "Downtime", value: hours(figures.downtimeHours, format) },
    { label: "MTTR", value: hours(figures.mttrHours, format), hint: "mean time to repair" },
    { label: "MTBF", value: hours(figures.mtbfHours, format), hint: "mean time between failures" },
    { label: "Availability", value: percent(figures.availability, format) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="reliability-figures">
      {items.map((item) => (
        <div key={item.label} className="rounded-lg border border-line bg-surface p-3">
          <dt className="text-xs text-fg-muted">
            {item.label}
            {item.hint ? <span className="sr-only"> ({item.hint})</span> : null}
          </dt>
          <dd className="text-xl font-semibold">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Pareto({ figures, format, label }: { figures: TReliabilityFigures; format: Format; label: (code: string) => string }) {
  const total = figures.failureCodes.reduce((sum, entry) => sum + entry.count, 0);
  const top = figures.failureCodes.slice(0, 15);
  // The running share after each code: the Pareto's cumulative line, in words.
  const shares = top.map((_, index) => top.slice(0, index + 1).reduce((sum, entry) => sum + entry.count, 0) / total);
  const most = top[0]?.count ?? 1;
  return (
    <Card aria-labelledby="pareto-title">
      <CardHeader id="pareto-title" title="Failure codes" description="Most frequent first, with the running share of all failures (Pareto)." />
      <ol className="space-y-2 px-4 pb-4" data-testid="failure-pareto">
        {top.map((entry, index) => {
          return (
            <li key={entry.code} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 text-sm">
              <span className="min-w-0 wrap-anywhere">{label(entry.code)}</span>
              <span className="text-right whitespace-nowrap">
                {format.number(entry.count)} · {percent(shares[index]!, format)}
              </span>
              <span className="col-span-2 h-2 overflow-hidden rounded bg-surface-2" aria-hidden="true">
                <span className="block h-full bg-accent" style={{ width: `${(entry.count / most) * 100}%` }} />
              </span>
            </li>
          );
        })}
      </ol>
      {figures.failureCodes.length > top.length ? <p className="px-4 pb-4 text-xs text-fg-muted">{format.number(figures.failureCodes.length - top.length)} more codes in the CSV.</p> : null}
    </Card>
  );
}

function Months({ data, format }: { data: TReliability; format: Format }) {
  return (
    <Card aria-labelledby="months-title">
      <CardHeader id="months-title" title="By month" description="Each month cut to the window." />
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="reliability-months">
          <caption className="sr-only">Reliability per month</caption>
          <thead className="bg-surface-2 text-left text-fg-muted">
            <tr>
              <th scope="col" className="px-3 py-2">Month</th>
              <th scope="col" className="px-3 py-2 text-right">Failures</th>
              <th scope="col" className="px-3 py-2 text-right">MTBF</th>
              <th scope="col" className="hidden px-3 py-2 text-right sm:table-cell">MTTR</th>
              <th scope="col" className="px-3 py-2 text-right">Avail.</th>
            </tr>
          </thead>
          <tbody>
            {data.months.map((month) => (
              <tr key={month.month} className="border-t border-line">
                <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">{format.month(month.month)}</th>
                <td className="px-3 py-2 text-right">{format.number(month.failures)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap">{hours(month.mtbfHours, format)}</td>
                <td className="hidden px-3 py-2 text-right whitespace-nowrap sm:table-cell">{hours(month.mttrHours, format)}</td>
                <td className="px-3 py-2 text-right">{percent(month.availability, format)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** The assets shown: the most failing ones; every one is in the CSV. */
const SHOWN_ASSETS = 20;

function Assets({ plantId, data, format, onPick }: { plantId: string; data: TReliability; format: Format; onPick: (tag: string) => void }) {
  return (
    <Card aria-labelledby="assets-title">
      <CardHeader id="assets-title" title="Assets" description="Each asset with a failure in the window, its components' jobs counted with its own; most failures first." />
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="reliability-assets">
          <caption className="sr-only">Reliability per asset</caption>
          <thead className="bg-surface-2 text-left text-fg-muted">
            <tr>
              <th scope="col" className="px-3 py-2">Asset</th>
              <th scope="col" className="px-3 py-2 text-right">Failures</th>
              <th scope="col" className="hidden px-3 py-2 text-right md:table-cell">Downtime</th>
              <th scope="col" className="hidden px-3 py-2 text-right sm:table-cell">MTTR</th>
              <th scope="col" className="px-3 py-2 text-right">MTBF</th>
              <th scope="col" className="hidden px-3 py-2 text-right md:table-cell">Avail.</th>
            </tr>
          </thead>
          <tbody>
            {data.assets.slice(0, SHOWN_ASSETS).map((entry) => (
              <tr key={entry.assetTagNumber} className="border-t border-line">
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <button type="button" className="text-left font-medium text-accent wrap-anywhere hover:underline" onClick={() => onPick(entry.assetTagNumber)}>
                    {entry.assetTagNumber}
                  </button>
                  <span className="block text-xs text-fg-muted wrap-anywhere">{entry.name}</span>
                  <Link className="text-xs text-accent hover:underline" href={`${plantPath(plantId, "jobs")}?asset=${encodeURIComponent(entry.assetTagNumber)}`}>
                    Job history
                  </Link>
                </th>
                <td className="px-3 py-2 text-right">{format.number(entry.failures)}</td>
                <td className="hidden px-3 py-2 text-right whitespace-nowrap md:table-cell">{hours(entry.downtimeHours, format)}</td>
                <td className="hidden px-3 py-2 text-right whitespace-nowrap sm:table-cell">{hours(entry.mttrHours, format)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap">{hours(entry.mtbfHours, format)}</td>
                <td className="hidden px-3 py-2 text-right md:table-cell">{percent(entry.availability, format)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.assets.length > SHOWN_ASSETS ? <p className="px-4 py-3 text-xs text-fg-muted">The {SHOWN_ASSETS} with most failures of {format.number(data.assets.length)}; every asset is in the CSV.</p> : null}
    </Card>
  );
}

/** One CSV: the plant (or asset) row, each asset, each month; figures as numbers, codes as `CODE:count`. */
function reliabilityCsv(data: TReliability): string {
  type Row = TReliabilityFigures & { scope: string; key: string; name: string };
  const rows: Row[] = [
    { scope: data.assetTagNumber ? "asset and components" : "plant", key: data.assetTagNumber ?? "", name: "", ...data.plant },
    ...data.assets.map((entry) => ({ ...entry, scope: "asset", key: entry.assetTagNumber, name: entry.name })),
    ...data.months.map((entry) => ({ ...entry, scope: "month", key: entry.month, name: "" })),
  ];
  return toCsv<Row>(
    [
      { header: "Scope", value: (row) => row.scope },
      { header: "Asset or month", value: (row) => row.key },
      { header: "Name", value: (row) => row.name },
      { header: "Start date", value: () => data.startDate },
      { header: "End date", value: () => data.endDate },
      { header: "Failures", value: (row) => row.failures },
      { header: "Downtime hours", value: (row) => row.downtimeHours },
      { header: "MTTR hours", value: (row) => row.mttrHours },
      { header: "MTBF hours", value: (row) => row.mtbfHours },
      { header: "Availability", value: (row) => row.availability },
      { header: "Failure codes", value: (row) => row.failureCodes.map((entry) => `${entry.code}:${entry.count}`).join(" ") },
    ],
    rows,
  );
}
