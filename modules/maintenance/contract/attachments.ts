/**
 * A task's attachments (docs/api.md, "Attachments"): photos, PDFs and text files kept with a task
 * in the maintenance database, listed on the job record its close-out wrote. An extension of the
 * maintenance interface. No server-only import: the browser checks a file against the same limits
 * before it sends it.
 */
import { z } from "@/lib/contract/zod";
import { ZPageQuery, ZTimestamp, paginated } from "@/lib/contract/common";
import { ATTACHMENT_MEDIA_TYPES } from "./attachment-files";

export const ZAttachment = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "The file name the uploader gave (`filename`)." }),
    contentType: z.enum(ATTACHMENT_MEDIA_TYPES).meta({ description: "The media type, as declared and checked against the file's first bytes." }),
    size: z.number().int().min(1).meta({ description: "Bytes." }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: "SHA-256 of the bytes, lower-case hex." }),
    createdAt: ZTimestamp.nullish().meta({ description: "When it was uploaded." }),
  })
  .meta({ id: "Attachment", description: "A file kept with a task (extension)." });

export const ZAttachmentPage = paginated(ZAttachment, "AttachmentPage");

/** What a file name may be: printable, no path, bounded. */
const ZAttachmentName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(/^[^\p{Cc}/\\]*$/u, "must not contain control characters, '/' or '\\'");

export const ZAttachmentUploadQuery = z.object({
  filename: ZAttachmentName.meta({ description: "The file's name, e.g. `pump-seal.jpg`; 1–200 characters, no control characters, `/` or `\\`." }),
});

export const ZAttachmentsQuery = ZPageQuery;

/**
 * The file's bytes, as the body of the upload and the answer of the download (OpenAPI: a binary
 * string under each media type).
 */
export const ZAttachmentBytes = z.string().meta({ id: "AttachmentBytes", description: "The file's bytes.", format: "binary" });

export type TAttachment = z.infer<typeof ZAttachment>;
