/**
 * A task's attachments (docs/api.md, "Attachments"): upload, list, download, and their OpenAPI
 * documentation, which endpoints.ts puts in the maintenance table beside the other operations.
 */
import { createHash, randomBytes } from "node:crypto";
import { ZAttachmentUploadQuery, ZAttachmentsQuery } from "@/modules/maintenance/contract/attachments";
import { ATTACHMENT_MEDIA_TYPES, MAX_ATTACHMENT_BYTES, isImageType, type AttachmentType } from "@/modules/maintenance/contract/attachment-files";
import { ApiError, invalidInput, type ServiceErrorCode } from "@/lib/contract/errors";
import { parseWith } from "@/lib/platform/http/body";
import { checkPathId, quoteId } from "./context";
import type { Operation } from "./operation";
import { existingTask } from "./reads";
import { contentMismatch } from "./sniff";

const newAttachmentId = () => `AT-${randomBytes(8).toString("hex")}`;

const mediaType = (header: string | undefined) => (header ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * How a download is served: never anything a browser runs. The stored type with `nosniff`; images
 * inline, every other type as a download; and a sandboxing policy, so even a file opened on its own
 * is a document with no scripts, no plugins, no origin.
 */
function downloadHeaders(attachment: { name: string; contentType: string; sha256: string; size: number }): Record<string, string> {
  const ascii = attachment.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const disposition = isImageType(attachment.contentType) ? "inline" : "attachment";
  return {
    "content-type": attachment.contentType.startsWith("text/") ? `${attachment.contentType}; charset=utf-8` : attachment.contentType,
    "content-disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    // An attachment never changes (a new file is a new id), but it is a plant's: no shared cache.
    "cache-control": "private, max-age=86400",
    etag: `"${attachment.sha256}"`,
  };
}

export const attachmentOperations = {
  uploadTaskAttachment: async (ctx, plant, input) => {
    const task = await existingTask(ctx.store, plant.id, input.params);
    const file = input.file?.();
    if (!file) throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "The file must be sent as the request body, under its own Content-Type.");
    if (file.tooLarge) throw new ApiError("PAYLOAD_TOO_LARGE", `The file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`);
    const contentType = mediaType(file.contentType);
    if (!(ATTACHMENT_MEDIA_TYPES as string[]).includes(contentType)) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", `Files of type ${quoteId(contentType || "(none)")} are not accepted; send one of ${ATTACHMENT_MEDIA_TYPES.join(", ")}.`, [
        { field: "Content-Type", problem: "not an accepted type", allowedValues: ATTACHMENT_MEDIA_TYPES },
      ]);
    }
    const { filename } = parseWith(ZAttachmentUploadQuery, input.query, "query parameters");
    if (!file.bytes || file.bytes.byteLength === 0) throw invalidInput("The file is empty.", [{ field: "(body)", problem: "empty" }]);
    const mismatch = contentMismatch(contentType as AttachmentType, file.bytes);
    if (mismatch) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", `The file's content is not ${mismatch}, as its Content-Type ${contentType} says.`, [
        { field: "(body)", problem: `not ${mismatch}` },
      ]);
    }
    const attachment = {
      id: newAttachmentId(),
      name: filename,
      contentType: contentType as AttachmentType,
      size: file.bytes.byteLength,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      createdAt: ctx.now().toISOString(),
    };
    const kept = await ctx.attachments.insert({ ...attachment, plantId: plant.id, taskId: task.id, content: file.bytes });
    if (!kept) await existingTask(ctx.store, plant.id, input.params);
    return { value: attachment };
  },
  listTaskAttachments: async (ctx, plant, { params, query }) => {
    const task = await existingTask(ctx.store, plant.id, params);
    const { page, pageSize } = parseWith(ZAttachmentsQuery, query, "query parameters");
    const all = await ctx.attachments.listForTask(plant.id, task.id);
    return { value: { data: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, totalPages: Math.ceil(all.length / pageSize) } };
  },
  getAttachment: async (ctx, plant, { params }) => {
    const id = checkPathId(params.attachmentId ?? "", "attachmentId");
    const file = await ctx.attachments.get(plant.id, id);
    if (!file) throw new ApiError("ATTACHMENT_NOT_FOUND", `Attachment ${quoteId(id)} does not exist in plant ${quoteId(plant.id)}.`);
    return { value: file.attachment, bytes: file.content, headers: downloadHeaders(file.attachment) };
  },
} satisfies Record<string, Operation>;

interface AttachmentDoc {
  summary: string;
  description: string;
  responseDescription: string;
  errors: ServiceErrorCode[];
}

const TYPES = ATTACHMENT_MEDIA_TYPES.join(", ");

export const ATTACHMENT_DOCS = {
  uploadTaskAttachment: {
    summary: "Attach a file to a task (extension)",
    description: `The file is the request body, sent under its own Content-Type (one of ${TYPES}), with its name in \`filename\`. At most 10 MiB (413 PAYLOAD_TOO_LARGE) and 50 files per task (409 TOO_MANY_ATTACHMENTS). Another type gives 415 UNSUPPORTED_MEDIA_TYPE, and so does a file whose first bytes are not of the type it declares (a PNG must start as a PNG; text must be UTF-8 without control characters or markup). An empty file gives 400. Answers the attachment: \`{ id, name, contentType, size, sha256, createdAt }\`. The task's job record (GET jobs-done) lists its attachments.`,
    responseDescription: "The attachment.",
    errors: ["TASK_NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "TOO_MANY_ATTACHMENTS"],
  },
  listTaskAttachments: {
    summary: "A task's attachments (extension)",
    description: "Oldest first, without their bytes (GET attachments/{attachmentId} serves those).",
    responseDescription: "Paginated envelope of attachments.",
    errors: ["TASK_NOT_FOUND"],
  },
  getAttachment: {
    summary: "An attachment's bytes (extension)",
    description:
      "The file as uploaded, under its stored Content-Type, with `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox; default-src 'none'` and `Content-Disposition: inline` for images, `attachment` (a download) for every other type; `ETag` is its SHA-256. An attachment of another plant is not found (404 ATTACHMENT_NOT_FOUND), like one that does not exist.",
    responseDescription: "The file's bytes.",
    errors: ["ATTACHMENT_NOT_FOUND"],
  },
} satisfies Record<keyof typeof attachmentOperations, AttachmentDoc>;
