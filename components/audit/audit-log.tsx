"use client";
/**
 * The audit log for administrators: every write made through the dashboard and every sign-in,
 * newest first, filtered by user, action, outcome, plant and days (all in the URL, so a finding can
 * be shared), and exported as CSV by the API itself (`/api/audit?…&format=csv`, the same filter).
 * Days are the reader's own calendar days: the API reads them in the zone sent as `tz` (the one
 * the page shows times in), and writes the CSV's times in it too.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { columnHelper, DataTable, PAGE_SIZES, type DataColumn } from "@/components/ui/data-table";
import { Field, FilterSelect, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/states";
import { apiGet, withQuery } from "@/lib/client/api";
import { apiPath } from "@/lib/contract/api";
import { isIsoDate } from "@/lib/client/dates";
import { useFormat } from "@/lib/client/format";
import { useMe } from "@/lib/client/me";
import { intParam, useUrlState } from "@/lib/client/url-state";
import type { TPage } from "@/lib/contract/common";
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, auditActionLabel, auditDetailText, auditOutcomeLabel } from "@/lib/contract/audit-labels";
import type { TAuditRecord } from "@/lib/contract/dashboard";

const DEFAULT_PAGE_SIZE = 50;

export function AuditLog() {
  const { params, get, update } = useUrlState();
  const format = useFormat();
  const me = useMe();
  const user = get("user");
  const action = get("action");
  const outcome = get("outcome");
  const plant = get("plant");
  const from = get("from");
  const to = get("to");
  const page = intParam(params.get("page"), 1);
  const size = intParam(params.get("size"), DEFAULT_PAGE_SIZE, 1000);
  const pageSize = (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
  const [userDraft, setUserDraft] = useState(user);
  const [shownUser, setShownUser] = useState(user);
  // Back/forward changes the URL: the box follows it.
  if (shownUser !== user) {
    setShownUser(user);
    setUserDraft(user);
  }

  const problem =
    (from && !isIsoDate(from) && `“${from.slice(0, 40)}” is not a date: choose the first day again.`) ||
    (to && !isIsoDate(to) && `“${to.slice(0, 40)}” is not a date: choose the last day again.`) ||
    (from && to && from > to && `The first day (${format.date(from)}) is after the last day (${format.date(to)}).`) ||
    null;

  const filter = {
    user: user || undefined,
    action: action || undefined,
    outcome: outcome || undefined,
    plantId: plant || undefined,
    from: from && !problem ? from : undefined,
    to: to && !problem ? to : undefined,
    tz: format.timeZone,
  };
  const log = useQuery({
    queryKey: ["audit", filter, page, pageSize],
    queryFn: ({ signal }) => apiGet<TPage<TAuditRecord>>(apiPath("auditLog"), { ...filter, page, pageSize }, signal),
    enabled: !problem,
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<DataColumn<TAuditRecord>[]>(() => {
    const helper = columnHelper<TAuditRecord>();
    return helper.columns([
      helper.accessor("at", { header: "Time", cell: (info) => <span className="whitespace-nowrap tabular-nums">{format.dateTime(info.getValue())}</span> }),
      helper.accessor("userEmail", { header: "User", meta: { wrap: true } }),
      helper.accessor("plantId", { header: "Plant", cell: (info) => info.getValue() ?? "—" }),
      helper.accessor("action", { header: "Action", cell: (info) => auditActionLabel(info.getValue()) }),
      helper.accessor("target", { header: "Target", cell: (info) => <span className="font-mono text-xs">{info.getValue() ?? "—"}</span> }),
      helper.accessor("outcome", {
        header: "Outcome",
        cell: (info) => (
          <Badge tone={info.getValue() === "SUCCESS" ? "success" : "danger"} title={info.getValue()}>
            {auditOutcomeLabel(info.getValue())}
          </Badge>
        ),
      }),
      helper.accessor("httpStatus", { header: "HTTP", meta: { align: "right" } }),
      helper.accessor("detail", { header: "Detail", meta: { wrap: true }, cell: (info) => <span className="text-xs text-fg-muted">{auditDetailText(info.getValue())}</span> }),
    ]);
  }, [format]);

  const csvHref = withQuery(apiPath("auditLog"), { ...filter, format: "csv" });
  const anyFilter = Boolean(user || action || outcome || plant || from || to);

  function applyUser(event: FormEvent) {
    event.preventDefault();
    update({ user: userDraft.trim() || null });
  }

  return (
    <div className="space-y-5">
      <PageHeader
        title="Audit log"
        description={`Every write through the dashboard and every sign-in, newest first. Times in ${format.timeZone}.`}
        actions={
          problem ? null : (
            <a href={csvHref} download className={buttonClasses("secondary", "sm")} data-testid="audit-csv">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              Download CSV
            </a>
          )
        }
      />

      <Card aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title" className="sr-only">
          Filters
        </h2>
        <div className="grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
          <form onSubmit={applyUser} className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
            <Field label="User" hint="Part of a name or e-mail; Enter applies" className="min-w-0 flex-1">
              {(control) => <Input {...control} type="search" value={userDraft} placeholder="ann or ann@company.com" onChange={(event) => setUserDraft(event.target.value)} onBlur={() => userDraft.trim() !== user && update({ user: userDraft.trim() || null })} />}
            </Field>
          </form>
          <FilterSelect label="Action" value={action} onChange={(value) => update({ action: value })} options={Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label }))} allLabel="Any action" />
          <FilterSelect label="Outcome" value={outcome} onChange={(value) => update({ outcome: value })} options={Object.entries(AUDIT_OUTCOMES).map(([value, label]) => ({ value, label }))} allLabel="Any outcome" />
          <FilterSelect label="Plant" value={plant} onChange={(value) => update({ plant: value })} options={(me.data?.plants ?? []).map((entry) => ({ value: entry.id, label: `${entry.name} (${entry.id})` }))} allLabel="Any plant" />
          <div className="grid grid-cols-2 gap-2 sm:col-span-2">
            <Field label="From day">
              {(control) => <Input {...control} type="date" value={isIsoDate(from) ? from : ""} aria-invalid={problem ? true : undefined} onChange={(event) => update({ from: event.target.value || null })} />}
            </Field>
            <Field label="To day">
              {(control) => <Input {...control} type="date" value={isIsoDate(to) ? to : ""} aria-invalid={problem ? true : undefined} onChange={(event) => update({ to: event.target.value || null })} />}
            </Field>
          </div>
        </div>
        {problem ? (
          <div role="alert" className="flex flex-wrap items-center justify-between gap-3 border-t border-line bg-danger-soft px-4 py-3 text-sm text-danger">
            <p className="font-medium">{problem}</p>
            <Button size="sm" onClick={() => update({ from: null, to: null })}>
              Clear the days
            </Button>
          </div>
        ) : anyFilter ? (
          <div className="flex justify-end border-t border-line px-4 py-2">
            <Button size="sm" variant="ghost" onClick={() => update({ user: null, action: null, outcome: null, plant: null, from: null, to: null })}>
              Clear filters
            </Button>
          </div>
        ) : null}
      </Card>

      {problem ? null : (
        <DataTable
          caption="Audit log entries"
          columns={columns}
          rows={log.data?.data ?? NO_ROWS}
          getRowId={(row) => String(row.id)}
          page={page}
          pageSize={pageSize}
          totalPages={log.data?.totalPages ?? 0}
          onPageChange={(next, nextSize) => update({ page: next > 1 ? next : null, size: nextSize === DEFAULT_PAGE_SIZE ? null : nextSize }, { keepPage: true })}
          isLoading={log.isPending}
          isFetching={log.isFetching}
          error={log.error}
          onRetry={() => void log.refetch()}
          empty={<EmptyState title="No entries">Nothing was recorded that matches these filters.</EmptyState>}
        />
      )}
    </div>
  );
}

const NO_ROWS: TAuditRecord[] = [];
