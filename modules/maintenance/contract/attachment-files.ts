/**
 * What an attachment may be (docs/api.md, "Attachments"): sizes, counts and media types, as plain
 * values without zod. The schemas in attachments.ts are built from them, and the task drawer and
 * job record import them from here, so a page that shows attachments does not load zod and the
 * schemas before anyone uploads (docs/architecture.md, "What the browser loads").
 */

/** Largest file, in bytes (10 MiB): a phone photo fits, a video does not. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Most attachments of one task. */
export const MAX_ATTACHMENTS_PER_TASK = 50;

/**
 * The media types accepted, each with the file name endings a browser's file picker offers for it.
 * Nothing a browser would run (HTML, SVG, JavaScript) is among them.
 */
export const ATTACHMENT_TYPES = {
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/gif": [".gif"],
  "image/webp": [".webp"],
  "application/pdf": [".pdf"],
  "text/plain": [".txt", ".log"],
  "text/csv": [".csv"],
} as const;
export type AttachmentType = keyof typeof ATTACHMENT_TYPES;
export const ATTACHMENT_MEDIA_TYPES = Object.keys(ATTACHMENT_TYPES) as AttachmentType[];

/** Images are shown in the page (thumbnails, inline); everything else is downloaded. */
export function isImageType(contentType: string): boolean {
  return contentType.startsWith("image/");
}

/** The `accept` attribute of a file input for these types. */
export const ATTACHMENT_ACCEPT = [...ATTACHMENT_MEDIA_TYPES, ...Object.values(ATTACHMENT_TYPES).flat()].join(",");
