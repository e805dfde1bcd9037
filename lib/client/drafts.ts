"use client";
/**
 * A form's draft, kept in this tab's sessionStorage until it is sent: a session that ends while a
 * form is open (the write's 401 goes to sign-in and back) loses nothing. A draft that was being sent
 * comes back marked so, with the same attempt id — the Idempotency-Key where the write takes one —
 * so that sending it again after a confirmation can never write twice. Every form that writes
 * (task, task edit, close-out, stock count) keeps its draft through this one hook.
 */
import { useEffect, useState } from "react";
import { ApiError } from "./api";

interface FormDraft<T> {
  values: T;
  attemptId: string;
  savedAt: string;
  /** Sent and not yet answered when the page went away (a 401, a closed tab). */
  sending: boolean;
}

export function readDraft<T>(key: string): FormDraft<T> | null {
  try {
    const text = window.sessionStorage.getItem(key);
    return text ? (JSON.parse(text) as FormDraft<T>) : null;
  } catch {
    return null;
  }
}

export function writeDraft<T>(key: string, draft: FormDraft<T> | null): void {
  try {
    if (draft) window.sessionStorage.setItem(key, JSON.stringify(draft));
    else window.sessionStorage.removeItem(key);
  } catch {
    // Storage full or denied: the form still works, only without the draft.
  }
}

interface Drafted<T> {
  values: T;
  setValues: (update: T | ((current: T) => T)) => void;
  /** The draft found when the form opened (typed and not sent, or being sent), until dismissed. */
  restored: FormDraft<T> | null;
  dismissRestored: () => void;
  attemptId: string;
  /** Call before sending: the draft is marked as being sent. */
  sending: () => void;
  /** The write succeeded: the draft is gone. */
  sent: () => void;
  /** The write was refused: the draft stays, no longer being sent (a 401 leaves it, for after sign-in). */
  failed: (error: unknown) => void;
  /** Throw the draft away and start again from `initial`. */
  discard: () => void;
}

/**
 * The values of a form under `key`, restored from its draft if there is one; written back on every
 * change that `worthKeeping` accepts (an untouched form leaves no draft).
 */
export function useFormDraft<T>(key: string, initial: () => T, worthKeeping: (values: T) => boolean): Drafted<T> {
  const [draft] = useState(() => readDraft<T>(key));
  const [values, setValues] = useState<T>(() => draft?.values ?? initial());
  const [restored, setRestored] = useState<FormDraft<T> | null>(draft);
  const [attemptId] = useState(() => draft?.attemptId ?? crypto.randomUUID());
  const [done, setDone] = useState(false);
  const save = (sending: boolean, current = values) => writeDraft<T>(key, { values: current, attemptId, savedAt: new Date().toISOString(), sending });

  useEffect(() => {
    if (!done && worthKeeping(values)) writeDraft<T>(key, { values, attemptId, savedAt: new Date().toISOString(), sending: false });
    // worthKeeping is a predicate of the values; a new function each render must not re-write.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, values, attemptId, done]);

  return {
    values,
    setValues: (update) => {
      setDone(false);
      setValues(update);
    },
    restored,
    dismissRestored: () => setRestored(null),
    attemptId,
    sending: () => {
      setRestored(null);
      save(true);
    },
    sent: () => {
      setDone(true);
      writeDraft(key, null);
    },
    failed: (error) => {
      if (!(error instanceof ApiError && error.status === 401)) save(false);
    },
    discard: () => {
      writeDraft(key, null);
      setRestored(null);
      setDone(true);
      setValues(initial());
    },
  };
}
