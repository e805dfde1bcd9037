"use client";
/** The notice of a form whose draft came back (lib/client/drafts.ts): resend it, or throw it away. */
import { Button } from "./button";

export function DraftNotice({
  sending,
  what,
  onSend,
  onDiscard,
  resendNote = "it is never saved twice",
  testId = "form-draft",
}: {
  sending: boolean;
  /** "task", "close-out", "count", … */
  what: string;
  onSend: () => void;
  onDiscard: () => void;
  /** Why resending is safe (or what it may answer), after "Check it and send it now:". */
  resendNote?: string;
  testId?: string;
}) {
  return (
    <div role="alert" className="space-y-2 rounded-md border border-warning bg-warning-soft px-3 py-2 text-sm text-warning" data-testid={testId}>
      <p>
        {sending
          ? `This ${what} was being sent when your session ended. Check it and send it now: ${resendNote}.`
          : `Your unsent ${what} is back, as you left it.`}
      </p>
      <div className="flex flex-wrap gap-2">
        {sending ? (
          <Button variant="primary" size="sm" onClick={onSend}>
            Send it now
          </Button>
        ) : null}
        <Button size="sm" onClick={onDiscard}>
          Discard the draft
        </Button>
      </div>
    </div>
  );
}
