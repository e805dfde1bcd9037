"use client";
/**
 * A task's attachments in the browser (docs/api.md, "Attachments"): the list, the upload with its
 * progress (XMLHttpRequest: fetch reports no upload progress), the download's URL, and the checks
 * the service would make (type, size) done first, so a file that cannot go is refused in words
 * before it is sent.
 */
import { useQuery } from "@tanstack/react-query";
import type { TAttachment } from "@/modules/maintenance/contract/attachments";
import { ATTACHMENT_MEDIA_TYPES, ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES, type AttachmentType } from "@/modules/maintenance/contract/attachment-files";
import { operationApiPath } from "@/lib/contract/api";
import { ApiError } from "@/lib/contract/errors";
import { fetchAllPages, withQuery } from "@/lib/client/api";
import type { Format } from "@/lib/client/format";

export const attachmentKeys = {
  /** Below the task list's key: whatever refreshes the tasks refreshes their files. */
  task: (plantId: string, taskId: string) => ["plant", plantId, "tasks", taskId, "attachments"] as const,
};

export function useTaskAttachments(plantId: string, taskId: string) {
  return useQuery({
    queryKey: attachmentKeys.task(plantId, taskId),
    // No abort signal: a drawer that re-renders its content would cancel the first read and leave the
    // list pending with nothing fetching (a cancelled query without data goes back to pending).
    queryFn: () => fetchAllPages<TAttachment>(operationApiPath("listTaskAttachments", { plantId, taskId }), {}),
  });
}

export const attachmentUrl = (plantId: string, attachmentId: string) => operationApiPath("getAttachment", { plantId, attachmentId });

/** A size in the reader's language: 912 bytes, 48.2 kB, 3.4 MB (binary multiples, as the 10 MB limit). */
export function formatSize(bytes: number, format: Format): string {
  if (bytes < 1024) return format.number(bytes, { style: "unit", unit: "byte", unitDisplay: "long" });
  if (bytes < 1024 * 1024) return format.number(bytes / 1024, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 });
  return format.number(bytes / (1024 * 1024), { style: "unit", unit: "megabyte", maximumFractionDigits: 1 });
}

/** The media type to send a file as: the browser's, else the one its name's ending says. */
function fileType(file: { name: string; type: string }): AttachmentType | null {
  if ((ATTACHMENT_MEDIA_TYPES as string[]).includes(file.type)) return file.type as AttachmentType;
  if (file.type) return null;
  const name = file.name.toLowerCase();
  return ATTACHMENT_MEDIA_TYPES.find((type) => ATTACHMENT_TYPES[type].some((ending) => name.endsWith(ending))) ?? null;
}

/** Why a file cannot be attached, in words; null when it can go. */
export function fileProblem(file: { name: string; type: string; size: number }, format: Format): string | null {
  if (!fileType(file)) return `“${file.name}” cannot be attached: only photos (PNG, JPEG, GIF, WebP), PDF, text and CSV files can.`;
  if (file.size > MAX_ATTACHMENT_BYTES) return `“${file.name}” is ${formatSize(file.size, format)}: the file is larger than 10 MB.`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  return null;
}

/** What the service's refusal means for the person attaching. */
export function uploadErrorText(error: unknown, name: string): string {
  if (error instanceof ApiError) {
    if (error.code === "PAYLOAD_TOO_LARGE") return `“${name}”: the file is larger than 10 MB.`;
    if (error.code === "TOO_MANY_ATTACHMENTS") return "This task already has 50 files, the most a task may have.";
    if (error.code === "UNSUPPORTED_MEDIA_TYPE") return `“${name}” was refused: ${error.message}`;
    if (error.code === "FORBIDDEN") return "You may not attach files to this task.";
    if (error.code === "FEATURE_UNAVAILABLE") return "This maintenance service does not keep files.";
    return `“${name}” could not be attached: ${error.message}`;
  }
  return `“${name}” could not be attached: the server could not be reached.`;
}

function parseAnswer(text: string): { code?: string; message?: string; data?: unknown[] } | null {
  try {
    return JSON.parse(text) as { code?: string; message?: string; data?: unknown[] };
  } catch {
    return null; // not JSON: reported by its status
  }
}

/** Sends one file; `onProgress` hears the fraction sent (0–1). */
export function uploadAttachment(plantId: string, taskId: string, file: File, onProgress: (fraction: number) => void): Promise<TAttachment> {
  const type = fileType(file);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", withQuery(operationApiPath("uploadTaskAttachment", { plantId, taskId }), { filename: file.name }));
    request.setRequestHeader("content-type", type ?? "application/octet-stream");
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError("NETWORK_ERROR", "The server could not be reached. Check your connection and try again."));
    request.onload = () => {
      const body = parseAnswer(request.responseText);
      if (request.status === 200 && body) return resolve(body as unknown as TAttachment);
      reject(ApiError.received(request.status, body?.code ?? `HTTP_${request.status}`, body?.message ?? `The server answered ${request.status}.`, body?.data ?? []));
    };
    request.send(file);
  });
}
