"use client";
/**
 * A task's files as a list: each with its name, size in the reader's language and a thumbnail for
 * a photo; the name opens the file (a photo in a new tab, anything else downloads: the server says
 * which, docs/api.md "Attachments"). Used by the task drawer and the job drawer.
 */
import { attachmentUrl, formatSize } from "@/modules/maintenance/client/attachments";
import { useFormat } from "@/lib/client/format";
import type { TAttachment } from "@/modules/maintenance/contract/attachments";
import { isImageType } from "@/modules/maintenance/contract/attachment-files";

const TYPE_WORDS: Record<string, string> = {
  "application/pdf": "PDF",
  "text/plain": "Text",
  "text/csv": "CSV",
};

export function AttachmentList({ plantId, attachments, testId = "attachment-list" }: { plantId: string; attachments: readonly TAttachment[]; testId?: string }) {
  const format = useFormat();
  return (
    <ul className="space-y-2" data-testid={testId}>
      {attachments.map((attachment) => {
        const url = attachmentUrl(plantId, attachment.id);
        const image = isImageType(attachment.contentType);
        return (
          <li key={attachment.id} className="flex min-w-0 items-center gap-3 text-sm" data-testid="attachment">
            {image ? (
              // eslint-disable-next-line @next/next/no-img-element -- a user's file from /api/, not a static asset Next could optimise
              <img src={url} alt="" loading="lazy" className="h-12 w-12 shrink-0 rounded border border-line object-cover" />
            ) : (
              <span aria-hidden="true" className="flex h-12 w-12 shrink-0 items-center justify-center rounded border border-line bg-surface-2 text-xs font-medium text-fg-muted">
                {TYPE_WORDS[attachment.contentType] ?? "File"}
              </span>
            )}
            <span className="min-w-0">
              <a
                href={url}
                className="font-medium break-all text-accent hover:underline"
                {...(image ? { target: "_blank", rel: "noopener noreferrer" } : { download: attachment.name })}
              >
                {attachment.name}
              </a>
              <span className="block text-xs text-fg-muted">
                {image ? "Photo" : (TYPE_WORDS[attachment.contentType] ?? "File")}, {formatSize(attachment.size, format)}
                {attachment.createdAt ? ` · ${format.dateTime(attachment.createdAt)}` : ""}
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
