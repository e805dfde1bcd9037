"use client";
/**
 * A monitor's editor: name, query (the explorer's KQL editor) and its schedule, a template to start
 * from, the task a firing opens (the plant's own lookup values), notifications, and a preview of
 * the last 24 hours or 7 days marking where it would have opened work. The server checks
 * everything again; its refusals are shown at the field they name, a query's at its line.
 */
import dynamic from "next/dynamic";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useAssets, useLookupLabels } from "@/modules/maintenance/client/maintenance";
import { monitorKeys, monitorsApi } from "@/modules/monitors/client/monitors";
import { useCan } from "@/lib/client/me";
import { MONITOR_LIMITS, timespanMs } from "@/modules/monitors/contract/limits";
import type { TMonitor, TMonitorInput, TMonitorPreview } from "@/modules/monitors/contract/monitors";
import { MONITOR_SEVERITIES, SEVERITY_LABEL, type MuteWindow, type TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";
import type { TLookupKind } from "@/modules/maintenance/contract/maintenance";
import type { QueryProblem } from "@/components/telemetry/telemetry-api";
import { MuteWindowsEditor } from "./mute-windows-editor";
import { LibraryPicker } from "@/modules/library/components/library-picker";
import { MONITOR_TEMPLATES } from "./templates";

const KqlEditor = dynamic(() => import("@/components/telemetry/kql-editor"), { ssr: false, loading: () => <Skeleton className="h-36 w-full" /> });
const PreviewChart = dynamic(() => import("./preview-chart").then((m) => m.PreviewChart), { ssr: false, loading: () => <Skeleton className="h-48 w-full" /> });

interface FormValues {
  name: string;
  query: string;
  keyColumns: string;
  every: string;
  lookback: string;
  taskTitle: string;
  taskDescription: string;
  activityKind: string;
  priority: string;
  assignedToRole: string;
  dueInDays: string;
  assetTagNumber: string;
  emails: string;
  webhookUrl: string;
  enabled: boolean;
  severity: TMonitorSeverity;
  mutes: MuteWindow[];
}

/** The fields a template fills in: the same for a new monitor and for "Start from a template". */
function templateValues(template: (typeof MONITOR_TEMPLATES)[number]): Pick<FormValues, "name" | "query" | "keyColumns" | "every" | "lookback" | "taskTitle" | "taskDescription"> {
  return {
    name: template.name,
    query: template.query,
    keyColumns: template.keyColumns.join(", "),
    every: template.every,
    lookback: template.lookback,
    taskTitle: template.taskTitle,
    taskDescription: template.taskDescription,
  };
}

function initialValues(monitor: TMonitor | null): FormValues {
  const template = MONITOR_TEMPLATES[0]!;
  if (!monitor) {
    return {
      ...templateValues(template),
      activityKind: "",
      priority: "",
      assignedToRole: "",
      dueInDays: "3",
      assetTagNumber: "",
      emails: "",
      webhookUrl: "",
      enabled: true,
      severity: "warning",
      mutes: [],
    };
  }
  return {
    name: monitor.name,
    query: monitor.query,
    keyColumns: monitor.keyColumns.join(", "),
    every: monitor.every,
    lookback: monitor.lookback,
    taskTitle: monitor.task.taskTitle,
    taskDescription: monitor.task.taskDescription ?? "",
    activityKind: monitor.task.activityKind,
    priority: monitor.task.priority,
    assignedToRole: monitor.task.assignedToRole,
    dueInDays: String(monitor.task.dueInDays),
    assetTagNumber: monitor.task.assetTagNumber ?? "",
    emails: monitor.notify.emails.join(", "),
    webhookUrl: monitor.notify.webhookUrl ?? "",
    enabled: monitor.enabled,
    severity: monitor.severity,
    mutes: monitor.mutes,
  };
}

const list = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((item) => item.trim())
    .filter(Boolean);

function toInput(values: FormValues, mayWebhook: boolean, stored: TMonitor | null): TMonitorInput {
  const webhook = values.webhookUrl.trim();
  return {
    name: values.name,
    query: values.query,
    keyColumns: list(values.keyColumns),
    every: values.every.trim(),
    lookback: values.lookback.trim(),
    task: {
      taskTitle: values.taskTitle,
      taskDescription: values.taskDescription.trim() || null,
      activityKind: values.activityKind,
      priority: values.priority,
      assignedToRole: values.assignedToRole,
      dueInDays: /^\d{1,3}$/.test(values.dueInDays.trim()) ? Number(values.dueInDays.trim()) : Number.NaN,
      assetTagNumber: values.assetTagNumber.trim() || null,
    },
    // Only an admin sends the webhook; leaving it out keeps what an admin set.
    notify: { emails: list(values.emails), ...(mayWebhook ? { webhookUrl: webhook || (stored?.notify.webhookConfigured ? null : undefined) } : {}) },
    enabled: values.enabled,
    severity: values.severity,
    mutes: values.mutes,
  };
}

/**
 * Evaluations the editor's preview replays: far below the API's limit, because each is a query on
 * the user's own telemetry budget (300 cost units a minute by default), and a series-analysis query
 * over hours of data costs several units on a busy server.
 */
const PREVIEW_EVALUATIONS = Math.min(60, MONITOR_LIMITS.maxPreviewEvaluations);

/** A readable step for replaying `rangeMs` in at most PREVIEW_EVALUATIONS evaluations. */
function previewStep(every: string, rangeMs: number): string {
  const everyMs = timespanMs(every.trim()) ?? 300_000;
  const minutes = Math.max(Math.ceil(everyMs / 60_000), Math.ceil(rangeMs / PREVIEW_EVALUATIONS / 60_000));
  return `${minutes}m`;
}

const PREVIEW_RANGES = { "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
type PreviewRange = keyof typeof PREVIEW_RANGES;

export function MonitorEditor({ plantId, monitor, onDone }: { plantId: string; monitor: TMonitor | null; onDone: (saved: TMonitor | null) => void }) {
  const queryClient = useQueryClient();
  const labels = useLookupLabels(plantId);
  const assets = useAssets(plantId);
  const mayWebhook = useCan("monitors:webhook");
  const [values, setValues] = useState<FormValues>(() => initialValues(monitor));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<QueryProblem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [previewRange, setPreviewRange] = useState<PreviewRange>("24h");
  const assetListId = useId();
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  // The plant's lookup values; a new monitor starts with the first of each.
  const options = (kind: TLookupKind) => labels.values(kind).map((entry) => ({ value: entry.value, label: entry.label || entry.value }));
  const activityKind = values.activityKind || options("activityKind")[0]?.value || "";
  const priority = values.priority || options("priority")[0]?.value || "";
  const assignedToRole = values.assignedToRole || options("assignedToRole")[0]?.value || "";
  const effective = { ...values, activityKind, priority, assignedToRole };

  function showRefusal(error: unknown) {
    setFieldErrors({});
    setProblems([]);
    if (error instanceof ApiError && error.code === "INVALID_QUERY") {
      setProblems(error.data as QueryProblem[]);
      setFieldErrors({ query: error.message });
      setFormError("The query has a problem; it is marked in the editor.");
      return;
    }
    if (error instanceof ApiError && error.code === "INVALID_INPUT") {
      const byField: Record<string, string> = {};
      for (const item of error.data as { field?: string; problem?: string }[]) {
        if (item.field && item.problem) byField[item.field.replace(/^task\.|^notify\./, "").replace(/\.\d+$/, "")] ??= item.problem;
      }
      setFieldErrors(byField);
    }
    setFormError(errorMessage(error));
  }

  const save = useMutation({
    mutationFn: (input: TMonitorInput) => (monitor ? monitorsApi.replace(plantId, monitor.id, input) : monitorsApi.create(plantId, input)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: monitorKeys.all(plantId) });
      onDone(saved);
    },
    onError: showRefusal,
  });

  const preview = useMutation({
    mutationFn: () => {
      const to = Math.floor(Date.now() / 60_000) * 60_000;
      return monitorsApi.preview(plantId, {
        query: values.query,
        keyColumns: list(values.keyColumns),
        every: previewStep(values.every, PREVIEW_RANGES[previewRange]),
        lookback: values.lookback.trim(),
        from: new Date(to - PREVIEW_RANGES[previewRange]).toISOString(),
        to: new Date(to).toISOString(),
      });
    },
    onError: showRefusal,
    onSuccess: () => {
      setProblems([]);
      setFormError(null);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    save.mutate(toInput(effective, mayWebhook, monitor));
  }

  function applyTemplate(id: string) {
    const template = MONITOR_TEMPLATES.find((candidate) => candidate.id === id);
    if (!template) return;
    setValues((current) => ({ ...current, ...templateValues(template) }));
    setProblems([]);
    setFieldErrors({});
  }

  const assetTags = useMemo(() => (assets.data ?? []).map((asset) => asset.tagNumber), [assets.data]);
  const pointNames = useMemo(() => ["Temperature", "Pressure", "Vibration", "MotorCurrent", "Throughput", "RunningState"], []);

  return (
    <Card aria-labelledby="monitor-editor-title">
      <CardHeader id="monitor-editor-title" title={monitor ? `Edit “${monitor.name}”` : "New monitor"} description="A KQL query on a schedule: every row it returns is a firing, and a new firing opens a task." />
      <form onSubmit={submit} noValidate className="space-y-6">
        <CardBody className="space-y-4">
          {!monitor ? (
            <Field label="Start from a template" hint={MONITOR_TEMPLATES.map((template) => `${template.label}: ${template.description}`).join(" ")}>
              {(control) => <Select {...control} defaultValue="threshold" onChange={(event) => applyTemplate(event.target.value)} options={MONITOR_TEMPLATES.map((template) => ({ value: template.id, label: template.label }))} />}
            </Field>
          ) : null}
          <Field label="Name" error={fieldErrors.name}>
            {(control) => <Input {...control} value={values.name} maxLength={120} onChange={(event) => set("name", event.target.value)} />}
          </Field>
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium" id="monitor-query-label">
              Query
            </span>
            <LibraryPicker plantId={plantId} onPick={(saved) => set("query", saved.query)} />
            <KqlEditor value={values.query} onChange={(text) => set("query", text)} onRun={() => preview.mutate()} names={pointNames} problems={problems} label="Monitor query (KQL)" />
            <p className="text-xs text-fg-muted">Runs over the last “lookback” before each run, on plant {plantId} only. Ctrl+Enter previews.</p>
            {fieldErrors.query ? <p className="text-xs font-medium text-danger">{fieldErrors.query}</p> : null}
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <Field label="Key columns" hint="Comma-separated; one firing per distinct value" error={fieldErrors.keyColumns}>
              {(control) => <Input {...control} value={values.keyColumns} onChange={(event) => set("keyColumns", event.target.value)} />}
            </Field>
            <Field label="Runs every" hint="e.g. 5m, 1h (at least 1m)" error={fieldErrors.every}>
              {(control) => <Input {...control} value={values.every} onChange={(event) => set("every", event.target.value)} />}
            </Field>
            <Field label="Looks back" hint="e.g. 15m, 6h" error={fieldErrors.lookback}>
              {(control) => <Input {...control} value={values.lookback} onChange={(event) => set("lookback", event.target.value)} />}
            </Field>
          </div>
        </CardBody>

        <section aria-labelledby="monitor-preview-title" className="space-y-3 border-t border-line px-4 pt-4">
          <div className="flex flex-wrap items-end gap-3">
            <h3 id="monitor-preview-title" className="mr-auto text-sm font-semibold">
              Preview
            </h3>
            <Field label="Over">
              {(control) => (
                <Select {...control} value={previewRange} onChange={(event) => setPreviewRange(event.target.value as PreviewRange)} options={[{ value: "24h", label: "Last 24 hours" }, { value: "7d", label: "Last 7 days" }]} />
              )}
            </Field>
            <Button onClick={() => preview.mutate()} disabled={preview.isPending}>
              {preview.isPending ? "Replaying…" : "Preview"}
            </Button>
          </div>
          <p className="text-xs text-fg-muted">
            Replays the monitor every {previewStep(values.every, PREVIEW_RANGES[previewRange])} over the {previewRange === "24h" ? "last 24 hours" : "last 7 days"}; nothing is opened.
          </p>
          {preview.isPending ? <Skeleton className="h-48 w-full" /> : preview.data ? <PreviewChart preview={preview.data as TMonitorPreview} /> : null}
        </section>

        <CardBody className="space-y-4 border-t border-line">
          <h3 className="text-sm font-semibold">The task a firing opens</h3>
          <Field label="Title" hint="{Column} is replaced by the row's value, e.g. {DeviceId}" error={fieldErrors.taskTitle}>
            {(control) => <Input {...control} value={values.taskTitle} maxLength={200} onChange={(event) => set("taskTitle", event.target.value)} />}
          </Field>
          <Field label="Description" error={fieldErrors.taskDescription}>
            {(control) => <Textarea {...control} value={values.taskDescription} maxLength={3000} onChange={(event) => set("taskDescription", event.target.value)} />}
          </Field>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field label="Activity kind" error={fieldErrors.activityKind}>
              {(control) => <Select {...control} value={activityKind} onChange={(event) => set("activityKind", event.target.value)} options={options("activityKind")} />}
            </Field>
            <Field label="Priority" error={fieldErrors.priority}>
              {(control) => <Select {...control} value={priority} onChange={(event) => set("priority", event.target.value)} options={options("priority")} />}
            </Field>
            <Field label="Assigned to" error={fieldErrors.assignedToRole}>
              {(control) => <Select {...control} value={assignedToRole} onChange={(event) => set("assignedToRole", event.target.value)} options={options("assignedToRole")} />}
            </Field>
            <Field label="Due in days" error={fieldErrors.dueInDays}>
              {(control) => <Input {...control} inputMode="numeric" value={values.dueInDays} onChange={(event) => set("dueInDays", event.target.value)} />}
            </Field>
          </div>
          <Field label="Asset" hint="Leave empty: the asset the row's DeviceId measures" error={fieldErrors.assetTagNumber}>
            {(control) => (
              <>
                <Input {...control} list={assetListId} value={values.assetTagNumber} onChange={(event) => set("assetTagNumber", event.target.value)} />
                <datalist id={assetListId}>
                  {assetTags.slice(0, 500).map((tag) => (
                    <option key={tag} value={tag} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </CardBody>

        <CardBody className="space-y-4 border-t border-line">
          <h3 className="text-sm font-semibold">Notifications</h3>
          <p className="text-xs text-fg-muted">One message per run that opened or resolved firings.</p>
          <Field label="E-mail addresses" hint="Comma-separated, at most 20" error={fieldErrors.emails}>
            {(control) => <Input {...control} type="text" inputMode="email" value={values.emails} onChange={(event) => set("emails", event.target.value)} />}
          </Field>
          {mayWebhook ? (
            <Field label="Webhook (Slack, Mattermost, Teams)" hint="Receives a POST with a JSON text field" error={fieldErrors.webhookUrl}>
              {(control) => <Input {...control} type="url" value={values.webhookUrl} onChange={(event) => set("webhookUrl", event.target.value)} />}
            </Field>
          ) : monitor?.notify.webhookConfigured ? (
            <p className="text-sm text-fg-muted">A webhook set by an admin receives this monitor&apos;s messages.</p>
          ) : null}
          <Field label="Severity" hint="Routes its messages; shown in every message">
            {(control) => (
              <Select
                {...control}
                value={values.severity}
                onChange={(event) => set("severity", event.target.value as TMonitorSeverity)}
                options={MONITOR_SEVERITIES.map((value) => ({ value, label: SEVERITY_LABEL[value] }))}
              />
            )}
          </Field>
          <MuteWindowsEditor windows={values.mutes} onChange={(mutes) => set("mutes", mutes)} error={fieldErrors.mutes} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={values.enabled} onChange={(event) => set("enabled", event.target.checked)} className="h-4 w-4 accent-accent" />
            Enabled (runs on its schedule)
          </label>
          {formError ? (
            <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              {formError}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : monitor ? "Save changes" : "Create monitor"}
            </Button>
            <Button onClick={() => onDone(null)}>Cancel</Button>
          </div>
        </CardBody>
      </form>
    </Card>
  );
}
