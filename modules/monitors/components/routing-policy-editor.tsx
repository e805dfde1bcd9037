"use client";
/**
 * A plant's routing policy (docs/api.md, "Contact points and routing"): rules checked in order on a
 * firing's severity and asset, the first that takes it naming its contact point, else the default;
 * and how long firings wait to go out together. Readers see it in words; engineers and admins edit
 * it (add, remove, move a rule) and save it whole. The server's refusal is shown at the rule it names.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { ApiError, errorMessage } from "@/lib/client/api";
import { routingApi, routingKeys, useNotificationPolicy } from "@/modules/monitors/client/routing";
import { MONITOR_SEVERITIES, SEVERITY_LABEL, type TMonitorSeverity } from "@/modules/monitors/contract/mute-windows";
import { ROUTING_LIMITS, type TContactPoint, type TNotificationPolicy } from "@/modules/monitors/contract/routing";

interface DraftRule {
  severities: TMonitorSeverity[];
  assetTags: string;
  contactPointId: string;
}

interface Draft {
  rules: DraftRule[];
  defaultContactPointId: string;
  groupSeconds: string;
}

function toDraft(policy: TNotificationPolicy): Draft {
  return {
    rules: policy.rules.map((rule) => ({ severities: [...rule.severities], assetTags: rule.assetTags.join(", "), contactPointId: String(rule.contactPointId) })),
    defaultContactPointId: policy.defaultContactPointId === null ? "" : String(policy.defaultContactPointId),
    groupSeconds: String(policy.groupSeconds),
  };
}

function toPolicy(draft: Draft): TNotificationPolicy {
  return {
    rules: draft.rules.map((rule) => ({
      severities: rule.severities,
      assetTags: rule.assetTags
        .split(/[,\s]+/)
        .map((tag) => tag.trim())
        .filter(Boolean),
      contactPointId: Number(rule.contactPointId),
    })),
    defaultContactPointId: draft.defaultContactPointId ? Number(draft.defaultContactPointId) : null,
    groupSeconds: /^\d{1,4}$/.test(draft.groupSeconds.trim()) ? Number(draft.groupSeconds.trim()) : Number.NaN,
  };
}

/** A rule in words: "Critical on P-101 → On-call". */
function ruleText(rule: TNotificationPolicy["rules"][number], pointName: (id: number | null) => string): string {
  const severities = rule.severities.length === 0 ? "Any severity" : rule.severities.map((severity) => SEVERITY_LABEL[severity]).join(" or ");
  const assets = rule.assetTags.length === 0 ? "any asset" : `asset ${rule.assetTags.join(", ")}`;
  return `${severities}, ${assets} → ${pointName(rule.contactPointId)}`;
}

export function RoutingPolicyEditor({ plantId, contactPoints, canWrite }: { plantId: string; contactPoints: readonly TContactPoint[]; canWrite: boolean }) {
  const policy = useNotificationPolicy(plantId);
  const pointName = (id: number | null) => (id === null ? "nowhere" : (contactPoints.find((point) => point.id === id)?.name ?? `contact point ${id}`));
  return (
    <Card aria-labelledby="routing-title">
      <CardHeader
        id="routing-title"
        title="Routing"
        description="Rules are checked in order: the first whose severities and assets take a firing names its contact point; a firing no rule takes goes to the default. Empty severities or assets: any."
      />
      {policy.error ? (
        <ErrorState error={policy.error} onRetry={() => void policy.refetch()} />
      ) : policy.isPending ? (
        <div role="status" className="p-4">
          <span className="sr-only">Loading the routing…</span>
          <Skeleton className="h-24 w-full" />
        </div>
      ) : canWrite ? (
        <PolicyForm plantId={plantId} policy={policy.data} contactPoints={contactPoints} />
      ) : (
        <CardBody className="space-y-2 text-sm">
          {policy.data.rules.length === 0 ? (
            <p>No rules.</p>
          ) : (
            <ol className="list-decimal space-y-1 pl-5" data-testid="routing-rules">
              {policy.data.rules.map((rule, index) => (
                <li key={index} className="wrap-anywhere">
                  {ruleText(rule, pointName)}
                </li>
              ))}
            </ol>
          )}
          <p>Everything else → {pointName(policy.data.defaultContactPointId)}.</p>
          <p className="text-fg-muted">Firings bound for one contact point wait {policy.data.groupSeconds} s and go out as one message.</p>
        </CardBody>
      )}
    </Card>
  );
}

function PolicyForm({ plantId, policy, contactPoints }: { plantId: string; policy: TNotificationPolicy; contactPoints: readonly TContactPoint[] }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(policy));
  const [saved, setSaved] = useState(false);
  const [localProblem, setLocalProblem] = useState<{ field: string; problem: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: TNotificationPolicy) => routingApi.savePolicy(plantId, body),
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: routingKeys.policy(plantId) });
    },
  });
  const options = contactPoints.map((point) => ({ value: String(point.id), label: point.name }));
  const problems = save.error instanceof ApiError && save.error.code === "INVALID_INPUT" && Array.isArray(save.error.data) ? (save.error.data as { field?: string; problem?: string }[]) : [];
  const problemAt = (prefix: string) =>
    (localProblem?.field === prefix ? localProblem.problem : undefined) ?? problems.find((item) => item.field === prefix || item.field?.startsWith(`${prefix}.`))?.problem;

  const change = (next: Partial<Draft>) => {
    setSaved(false);
    setLocalProblem(null);
    setDraft((current) => ({ ...current, ...next }));
  };
  const changeRule = (index: number, next: Partial<DraftRule>) => change({ rules: draft.rules.map((rule, other) => (other === index ? { ...rule, ...next } : rule)) });
  const move = (index: number, by: number) => {
    const rules = [...draft.rules];
    const [rule] = rules.splice(index, 1);
    rules.splice(index + by, 0, rule!);
    change({ rules });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The plain mistakes are told here in words; the server checks everything again.
    const policy = toPolicy(draft);
    const unnamed = policy.rules.findIndex((rule) => !(rule.contactPointId > 0));
    const problem =
      unnamed >= 0
        ? { field: `rules.${unnamed}`, problem: "Choose the contact point this rule sends to." }
        : !(policy.groupSeconds >= 0 && policy.groupSeconds <= ROUTING_LIMITS.maxGroupSeconds)
          ? { field: "groupSeconds", problem: `Must be a whole number of seconds from 0 to ${ROUTING_LIMITS.maxGroupSeconds}.` }
          : null;
    setLocalProblem(problem);
    save.reset();
    if (!problem) save.mutate(policy);
  };

  if (contactPoints.length === 0) {
    return <CardBody className="text-sm text-fg-muted">Create a contact point first; rules send to contact points.</CardBody>;
  }
  return (
    <CardBody>
      <form className="space-y-4" onSubmit={submit} noValidate>
        {draft.rules.length === 0 ? <p className="text-sm text-fg-muted">No rules: every firing goes to the default.</p> : null}
        <ol className="space-y-3" data-testid="routing-rules">
          {draft.rules.map((rule, index) => (
            <li key={index}>
              <fieldset className="space-y-3 rounded-md border border-line p-3" aria-invalid={problemAt(`rules.${index}`) ? true : undefined}>
                <legend className="px-1 text-sm font-semibold">Rule {index + 1}</legend>
                <div role="group" aria-label={`Rule ${index + 1} severities`} className="flex flex-wrap gap-3">
                  {MONITOR_SEVERITIES.map((severity) => (
                    <label key={severity} className="flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-accent"
                        checked={rule.severities.includes(severity)}
                        onChange={(event) =>
                          changeRule(index, {
                            severities: event.target.checked ? MONITOR_SEVERITIES.filter((other) => other === severity || rule.severities.includes(other)) : rule.severities.filter((other) => other !== severity),
                          })
                        }
                      />
                      {SEVERITY_LABEL[severity]}
                    </label>
                  ))}
                </div>
                <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
                  <Field label={`Rule ${index + 1} assets`} hint="Asset tag numbers, separated by commas; empty: any asset.">
                    {(control) => <Input {...control} value={rule.assetTags} onChange={(event) => changeRule(index, { assetTags: event.target.value })} autoComplete="off" />}
                  </Field>
                  <Field label={`Rule ${index + 1} sends to`}>
                    {(control) => <Select {...control} options={options} placeholder="Choose a contact point" value={rule.contactPointId} onChange={(event) => changeRule(index, { contactPointId: event.target.value })} />}
                  </Field>
                </div>
                {problemAt(`rules.${index}`) ? <p className="text-sm font-medium text-danger">{problemAt(`rules.${index}`)}</p> : null}
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" onClick={() => move(index, -1)} disabled={index === 0} aria-label={`Move up rule ${index + 1}`}>
                    Move up
                  </Button>
                  <Button size="sm" onClick={() => move(index, 1)} disabled={index === draft.rules.length - 1} aria-label={`Move down rule ${index + 1}`}>
                    Move down
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => change({ rules: draft.rules.filter((_, other) => other !== index) })} aria-label={`Remove rule ${index + 1}`}>
                    Remove
                  </Button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        {draft.rules.length < ROUTING_LIMITS.rules ? (
          <Button size="sm" onClick={() => change({ rules: [...draft.rules, { severities: [], assetTags: "", contactPointId: options[0]?.value ?? "" }] })}>
            Add rule
          </Button>
        ) : null}
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <Field label="Everything else goes to" error={problemAt("defaultContactPointId")}>
            {(control) => <Select {...control} options={options} placeholder="Nowhere" value={draft.defaultContactPointId} onChange={(event) => change({ defaultContactPointId: event.target.value })} />}
          </Field>
          <Field label="Group firings for (seconds)" hint={`Firings bound for one contact point within this wait go out as one message; 0 to ${ROUTING_LIMITS.maxGroupSeconds}.`} error={problemAt("groupSeconds")}>
            {(control) => <Input {...control} inputMode="numeric" value={draft.groupSeconds} onChange={(event) => change({ groupSeconds: event.target.value })} />}
          </Field>
        </div>
        <div aria-live="polite" className="text-sm">
          {save.error ? <p className="text-danger wrap-anywhere">Not saved: {errorMessage(save.error)}</p> : null}
          {saved ? <p>Routing saved.</p> : null}
        </div>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save routing"}
        </Button>
      </form>
    </CardBody>
  );
}
