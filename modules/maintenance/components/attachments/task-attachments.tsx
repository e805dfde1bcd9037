"use client";
/**
 * The task drawer's files: the list, and for whoever may attach an upload button that also opens a
 * phone's camera (`capture`), one file or several, each checked here first (type, 10 MB) and then
 * sent with its progress shown; refusals in words (docs/api.md, "Attachments").
 */
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { attachmentKeys, fileProblem, uploadAttachment, uploadErrorText, useTaskAttachments } from "@/modules/maintenance/client/attachments";
import { useFormat } from "@/lib/client/format";
import { ApiError } from "@/lib/contract/errors";
import { ATTACHMENT_ACCEPT, MAX_ATTACHMENTS_PER_TASK } from "@/modules/maintenance/contract/attachment-files";
import { AttachmentList } from "./attachment-list";

export function TaskAttachments({ plantId, taskId, canAttach }: { plantId: string; taskId: string; canAttach: boolean }) {
  const attachments = useTaskAttachments(plantId, taskId);
  const queryClient = useQueryClient();
  const format = useFormat();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [sending, setSending] = useState<{ name: string; percent: number } | null>(null);
  const [messages, setMessages] = useState<{ tone: "error" | "success"; text: string }[]>([]);

  async function send(files: File[]) {
    const said: { tone: "error" | "success"; text: string }[] = [];
    for (const file of files) {
      const problem = fileProblem(file, format);
      if (problem) {
        said.push({ tone: "error", text: problem });
        continue;
      }
      setSending({ name: file.name, percent: 0 });
      try {
        await uploadAttachment(plantId, taskId, file, (fraction) => setSending({ name: file.name, percent: Math.round(fraction * 100) }));
        said.push({ tone: "success", text: `Attached “${file.name}”.` });
      } catch (error) {
        said.push({ tone: "error", text: uploadErrorText(error, file.name) });
      }
    }
    setSending(null);
    setMessages(said);
    await queryClient.invalidateQueries({ queryKey: attachmentKeys.task(plantId, taskId) });
  }

  const list = attachments.data ?? [];
  const full = list.length >= MAX_ATTACHMENTS_PER_TASK;
  return (
    <section aria-labelledby="task-attachments-heading" data-testid="task-attachments">
      <h3 id="task-attachments-heading" className="mb-2 text-sm font-semibold">
        Photos and files{attachments.data ? ` (${list.length})` : ""}
      </h3>
      {attachments.isPending ? (
        <div role="status">
          <span className="sr-only">Loading the files…</span>
          <Skeleton className="h-12 w-full" />
        </div>
      ) : attachments.error ? (
        attachments.error instanceof ApiError && attachments.error.code === "FEATURE_UNAVAILABLE" ? (
          <p className="text-sm text-fg-muted">This maintenance service does not keep files.</p>
        ) : (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
            <span>Could not load the files: {errorMessage(attachments.error)}</span>
            <Button size="sm" onClick={() => void attachments.refetch()}>
              Try again
            </Button>
          </div>
        )
      ) : list.length === 0 ? (
        <p className="text-sm text-fg-muted">No photos or files yet.</p>
      ) : (
        <AttachmentList plantId={plantId} attachments={list} />
      )}
      {canAttach && !(attachments.error instanceof ApiError && attachments.error.code === "FEATURE_UNAVAILABLE") ? (
        <div className="mt-3 space-y-2">
          <input
            ref={input}
            id={inputId}
            type="file"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            accept={ATTACHMENT_ACCEPT}
            capture="environment"
            multiple
            data-testid="attachment-input"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              if (files.length > 0) void send(files);
            }}
          />
          <Button size="sm" disabled={Boolean(sending) || full} onClick={() => input.current?.click()}>
            Attach photo or file
          </Button>
          <p className="text-xs text-fg-muted">{full ? "This task has 50 files, the most a task may have." : "Photos (PNG, JPEG, GIF, WebP), PDF, text or CSV, up to 10 MB each."}</p>
          {sending ? (
            <div role="status" className="text-sm">
              <label htmlFor={`${inputId}-progress`}>Sending “{sending.name}”… {sending.percent} %</label>
              <progress id={`${inputId}-progress`} className="block h-2 w-full" max={100} value={sending.percent} />
            </div>
          ) : null}
          {messages.map((message, index) => (
            <p
              key={index}
              role={message.tone === "error" ? "alert" : "status"}
              className={message.tone === "error" ? "rounded-md bg-danger-soft px-3 py-2 text-sm text-danger" : "text-sm text-success"}
              data-testid="attachment-message"
            >
              {message.text}
            </p>
          ))}
        </div>
      ) : null}
    </section>
  );
}
