"use client";
/**
 * The Sessions page (docs/api.md, "Sessions"): the signed-in user's own open sessions — the browser
 * and system each signed in with, from which address, when, when last used, and which one is this
 * browser — and a way to end any of them, or every one but this. Ending this browser's own session
 * signs it out.
 */
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/client/api";
import { useFormat } from "@/lib/client/format";
import type { TSession } from "@/modules/account/contract/sessions";
import { useEndOtherSessions, useEndSession, useMySessions } from "@/modules/account/client/sessions";
import { describeUserAgent } from "@/modules/account/client/user-agent";

const METHOD_LABEL: Record<string, string> = {
  credentials: "password",
  invitation: "invitation link",
  oidc: "single sign-on",
  "azure-ad": "Microsoft Entra ID",
};

export function SessionsPage() {
  const sessions = useMySessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [status, setStatus] = useState("");
  const others = sessions.data?.data.filter((session) => !session.current).length ?? 0;
  const error = endOne.error ?? endOthers.error;

  function end(session: TSession) {
    setStatus("");
    endOne.mutate(session.handle, {
      onSuccess: () => {
        // This browser's own session: it is signed out now; a full load shows the sign-in page.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        if (session.current) window.location.assign("/signin");
        else setStatus(`Ended the session of ${describeUserAgent(session.userAgent)}.`);
      },
    });
  }

  return (
    <div className="space-y-5">
      <PageHeader
        title="Sessions"
        description="Where you are signed in. End a session you do not recognise; its next request has to sign in again."
        actions={
          <Button
            variant="secondary"
            disabled={others === 0 || endOthers.isPending}
            onClick={() => {
              setStatus("");
              endOthers.mutate(undefined, { onSuccess: ({ ended }) => setStatus(`Signed out everywhere else: ${ended} session${ended === 1 ? "" : "s"} ended.`) });
            }}
          >
            Sign out everywhere else
          </Button>
        }
      />
      <p aria-live="polite" role="status" className="text-sm text-fg-muted empty:hidden">
        {status}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          Could not end the session: {errorMessage(error)}
        </p>
      ) : null}
      <Card aria-labelledby="sessions-list">
        <CardHeader id="sessions-list" title={sessions.data ? `${sessions.data.data.length} open session${sessions.data.data.length === 1 ? "" : "s"}` : "Your sessions"} />
        {sessions.isPending ? (
          <TableSkeleton rows={3} columns={3} />
        ) : sessions.error ? (
          <ErrorState error={sessions.error} title="Could not load your sessions" onRetry={() => void sessions.refetch()} />
        ) : sessions.data.data.length === 0 ? (
          <EmptyState title="No open sessions">Sign in again to see this browser&apos;s session here.</EmptyState>
        ) : (
          <ul className="divide-y divide-line">
            {sessions.data.data.map((session) => (
              <SessionRow key={session.handle} session={session} busy={endOne.isPending} onEnd={() => end(session)} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function SessionRow({ session, busy, onEnd }: { session: TSession; busy: boolean; onEnd: () => void }) {
  const format = useFormat();
  const device = describeUserAgent(session.userAgent);
  return (
    <li className="flex flex-wrap items-start gap-3 px-4 py-3">
      <div className="min-w-0 flex-1 basis-64">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{device}</span>
          {session.current ? <Badge tone="accent">This session</Badge> : null}
        </div>
        <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm text-fg-muted">
          <dt>Signed in</dt>
          <dd>
            <time dateTime={session.signedInAt}>{format.dateTime(session.signedInAt)}</time> with {METHOD_LABEL[session.method] ?? session.method}
          </dd>
          <dt>Address</dt>
          <dd className="wrap-anywhere">{session.address ?? "unknown"}</dd>
          <dt>Last seen</dt>
          <dd>
            <time dateTime={session.lastSeenAt}>{format.dateTime(session.lastSeenAt)}</time>
          </dd>
          {session.userAgent ? (
            <>
              <dt>Browser</dt>
              <dd className="wrap-anywhere text-xs">{session.userAgent}</dd>
            </>
          ) : null}
        </dl>
      </div>
      <Button size="sm" variant={session.current ? "secondary" : "danger"} disabled={busy} onClick={onEnd} aria-label={session.current ? "Sign out of this session" : `End session: ${device}, signed in ${format.dateTime(session.signedInAt)}`}>
        {session.current ? "Sign out" : "End session"}
      </Button>
    </li>
  );
}
