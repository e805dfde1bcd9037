"use client";
/**
 * A plant's contact points and routing (docs/api.md, "Contact points and routing"): the contact
 * points (an e-mail list and/or a webhook) with when each last sent and why it did not, and the
 * routing policy that picks one for each firing. Engineers and admins change them (monitors:write);
 * only admins set and see a webhook's address (monitors:webhook); everyone else reads. The server
 * checks everything again and its refusals are shown at the field they name. The contact point
 * being edited is in the URL (`?point=<id>|new`).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Textarea } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { ApiError, errorMessage } from "@/lib/client/api";
import { useFormat, type Format } from "@/lib/client/format";
import { useCan } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { routingApi, routingKeys, useContactPoints, type ContactPointBody } from "@/modules/monitors/client/routing";
import { ROUTING_LIMITS, type TContactPoint } from "@/modules/monitors/contract/routing";
import { RoutingPolicyEditor } from "./routing-policy-editor";

export function ContactPointsPage({ plantId }: { plantId: string }) {
  const { get, update } = useUrlState();
  const format = useFormat();
  const canWrite = useCan("monitors:write");
  const points = useContactPoints(plantId);
  const editing = canWrite ? get("point") : null;
  const edited = editing && editing !== "new" ? (points.data?.data.find((point) => String(point.id) === editing) ?? null) : null;

  return (
    <div className="space-y-5">
      <PageHeader
        title="Contact points and routing"
        description={`Where plant ${plantId}'s monitor messages go: each firing to the contact point of the first rule that takes it, grouped into one message per contact point.`}
        actions={
          <>
            <ButtonLink href={plantPath(plantId, "monitors")}>Monitors</ButtonLink>
            {canWrite ? (
              <ButtonLink href="?point=new" variant="primary" scroll={false}>
                New contact point
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {editing === "new" || edited ? (
        <ContactPointEditor key={editing} plantId={plantId} point={edited} onDone={() => update({ point: null })} />
      ) : editing && points.data ? (
        <Card>
          <EmptyState title="Contact point not found">There is no contact point {editing} at plant {plantId}.</EmptyState>
        </Card>
      ) : null}
      <Card aria-labelledby="contact-points-title">
        <CardHeader
          id="contact-points-title"
          title="Contact points"
          description={canWrite ? "E-mail lists and chat webhooks the routing sends to." : "E-mail lists and chat webhooks the routing sends to; engineers and admins change them."}
        />
        {points.error ? (
          <ErrorState error={points.error} onRetry={() => void points.refetch()} />
        ) : points.isPending ? (
          <div role="status" className="space-y-2 p-4">
            <span className="sr-only">Loading contact points…</span>
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : points.data.data.length === 0 ? (
          <EmptyState title="No contact points yet">
            {canWrite ? "Create one for each list of people or chat channel that should hear of firings." : "Engineers and admins create contact points; they appear here."}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line" data-testid="contact-points">
            {points.data.data.map((point) => (
              <ContactPointRow key={point.id} plantId={plantId} point={point} canWrite={canWrite} format={format} />
            ))}
          </ul>
        )}
      </Card>
      <RoutingPolicyEditor plantId={plantId} contactPoints={points.data?.data ?? []} canWrite={canWrite} />
    </div>
  );
}

function ContactPointRow({ plantId, point, canWrite, format }: { plantId: string; point: TContactPoint; canWrite: boolean; format: Format }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => routingApi.remove(plantId, point.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: routingKeys.contactPoints(plantId) }),
  });
  const webhook = point.webhookUrl ?? (point.webhookConfigured ? "set by an admin" : null);
  return (
    <li className="space-y-2 px-4 py-3 text-sm" aria-labelledby={`contact-point-${point.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 space-y-1">
          <h3 id={`contact-point-${point.id}`} className="font-semibold wrap-anywhere">
            {point.name}
          </h3>
          <p className="wrap-anywhere">
            <span className="text-fg-muted">E-mail: </span>
            {point.emails.length > 0 ? point.emails.join(", ") : "nobody"}
          </p>
          <p className="wrap-anywhere">
            <span className="text-fg-muted">Webhook: </span>
            {webhook ?? "none"}
          </p>
          <p className="text-fg-muted">
            {point.lastSentAt ? `Last sent ${format.dateTime(point.lastSentAt)}` : "Nothing sent yet"} · changed by {point.updatedBy}, {format.dateTime(point.updatedAt)}
          </p>
          {point.lastError ? <p className="rounded-md bg-warning-soft px-2 py-1 text-warning wrap-anywhere">Last message not delivered: {point.lastError}</p> : null}
        </div>
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <ButtonLink size="sm" href={`?point=${point.id}`} scroll={false} aria-label={`Edit ${point.name}`}>
              Edit
            </ButtonLink>
            {confirming ? (
              <>
                <Button size="sm" variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                  Delete “{point.name}”
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                  Keep it
                </Button>
              </>
            ) : (
              <Button size="sm" variant="danger" aria-label={`Delete ${point.name}…`} onClick={() => setConfirming(true)}>
                Delete…
              </Button>
            )}
          </div>
        ) : null}
      </div>
      {remove.error ? (
        <p role="alert" className="text-danger">
          Not deleted: {errorMessage(remove.error)}
        </p>
      ) : null}
    </li>
  );
}

const addresses = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/** A refusal's field problems as words at their fields: `emails.2` names the address it refused. */
function fieldProblems(error: unknown, emails: readonly string[]): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== "INVALID_INPUT" || !Array.isArray(error.data)) return {};
  const byField: Record<string, string> = {};
  for (const item of error.data as { field?: string; problem?: string }[]) {
    if (!item.field || !item.problem) continue;
    const [field, index] = item.field.split(".");
    if (field === "emails" && index !== undefined && emails[Number(index)] !== undefined) byField.emails ??= `“${emails[Number(index)]}”: ${item.problem}`;
    else if (field === "webhookUrl" && item.problem === "refused destination") byField.webhookUrl ??= "Refused destination: only public addresses may be called.";
    else byField[field ?? "name"] ??= item.problem;
  }
  return byField;
}

function ContactPointEditor({ plantId, point, onDone }: { plantId: string; point: TContactPoint | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const mayWebhook = useCan("monitors:webhook");
  const [name, setName] = useState(point?.name ?? "");
  const [emails, setEmails] = useState(point?.emails.join("\n") ?? "");
  const [webhookUrl, setWebhookUrl] = useState(point?.webhookUrl ?? "");
  const [sent, setSent] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (body: ContactPointBody) => (point ? routingApi.replace(plantId, point.id, body) : routingApi.create(plantId, body)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: routingKeys.contactPoints(plantId) });
      onDone();
    },
  });
  const problems = fieldProblems(save.error, sent);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = addresses(emails);
    setSent(list);
    const hook = webhookUrl.trim();
    // Only an admin sends the webhook; leaving it out keeps what an admin set.
    save.mutate({ name, emails: list, ...(mayWebhook ? { webhookUrl: hook || null } : {}) });
  };

  return (
    <Card aria-labelledby="contact-point-editor-title">
      <CardHeader id="contact-point-editor-title" title={point ? `Edit “${point.name}”` : "New contact point"} description="Messages to it list every firing change of its group: severity, monitor, asset and key." />
      <CardBody>
        <form className="grid max-w-2xl grid-cols-1 gap-4" onSubmit={submit} noValidate>
          <Field label="Name" error={problems.name}>
            {(control) => <Input {...control} value={name} maxLength={120} onChange={(event) => setName(event.target.value)} autoComplete="off" />}
          </Field>
          <Field
            label="E-mail addresses"
            hint={`One per line or separated by commas; up to ${ROUTING_LIMITS.emailsPerContactPoint}. The plant's users, or domains the operator allows.`}
            error={problems.emails}
          >
            {(control) => <Textarea {...control} value={emails} rows={3} onChange={(event) => setEmails(event.target.value)} />}
          </Field>
          {mayWebhook ? (
            <Field label="Webhook URL" hint="A Slack, Mattermost or Teams incoming webhook; only public addresses may be called. Empty: none." error={problems.webhookUrl}>
              {(control) => <Input {...control} type="url" value={webhookUrl} onChange={(event) => setWebhookUrl(event.target.value)} autoComplete="off" />}
            </Field>
          ) : (
            <p className="text-sm text-fg-muted">{point?.webhookConfigured ? "A webhook set by an admin is kept." : "Only an admin sets a webhook."}</p>
          )}
          {save.error ? (
            <p role="alert" className="text-sm text-danger wrap-anywhere">
              Not saved: {errorMessage(save.error)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : point ? "Save contact point" : "Create contact point"}
            </Button>
            <Button variant="ghost" onClick={onDone}>
              Cancel
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
