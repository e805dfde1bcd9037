/**
 * Is a file what its Content-Type says? Checked on its first bytes (the formats' magic numbers),
 * so a script or a page cannot be stored under an image's or a text's name: the download is served
 * with the stored type and `nosniff` (docs/api.md, "Attachments"), and the type must be true.
 */
import type { AttachmentType } from "@/modules/maintenance/contract/attachment-files";

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Markup a browser would render or run, at the start of a "text" file (after a BOM and white space). */
const MARKUP = /^(?:\uFEFF)?\s*<(?:!doctype|html|head|body|script|svg|\?xml|iframe|object|embed|meta|link|style|img)\b/i;

/** UTF-8 text with no control characters but tab, line feed, carriage return and form feed. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // Control characters are exactly what is looked for: a text file carries none but tab, LF, FF and CR.
  if (/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text)) return false;
  return !MARKUP.test(text.slice(0, 1024));
}

const CHECKS: Record<AttachmentType, { what: string; test: (bytes: Uint8Array) => boolean }> = {
  "image/png": { what: "a PNG image", test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  "image/jpeg": { what: "a JPEG image", test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  "image/gif": { what: "a GIF image", test: (b) => startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a")) },
  "image/webp": { what: "a WebP image", test: (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8) },
  "application/pdf": { what: "a PDF document", test: (b) => startsWith(b, ascii("%PDF-")) },
  "text/plain": { what: "plain UTF-8 text", test: isPlainText },
  "text/csv": { what: "CSV text (UTF-8)", test: isPlainText },
};

/** Null when the bytes are of the declared type; else what they should have been, for the refusal. */
export function contentMismatch(type: AttachmentType, bytes: Uint8Array): string | null {
  const check = CHECKS[type];
  return check.test(bytes) ? null : check.what;
}
