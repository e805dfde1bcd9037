"use client";
/**
 * Numbers, dates and times as the signed-in person reads them: in the browser's language (decimal
 * comma in Rotterdam and Oulu, point in Houston) and time zone. Calendar dates of the service
 * (`YYYY-MM-DD`) are days, not instants: they are shown as that day wherever the reader is.
 *
 * The server does not know the browser's language or zone, so the first render (on the server and
 * while the page hydrates) uses a fixed one (`SERVER_LOCALE`, UTC) and React re-renders with the
 * browser's right after hydration (useSyncExternalStore's server snapshot): no mismatch. Data the
 * browser fetches shows no flash; data rendered on the server (the task board's cards) is redrawn
 * in the reader's form right after hydration.
 */
import { useMemo, useSyncExternalStore } from "react";
import { dayInZone } from "@/lib/client/dates";

const SERVER_LOCALE = "en-GB";

const noSubscription = () => () => undefined;

/** The browser's first language (`navigator.language`), `SERVER_LOCALE` before hydration. */
function useLocale(): string {
  return useSyncExternalStore(noSubscription, () => navigator.language || SERVER_LOCALE, () => SERVER_LOCALE);
}

/** The browser's IANA time zone, UTC before hydration. */
export function useTimeZone(): string {
  return useSyncExternalStore(noSubscription, () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC", () => "UTC");
}

/**
 * Today's calendar day (`YYYY-MM-DD`) in the reader's time zone: what "overdue", "due today" and
 * the default end of a period mean to them. UTC's day before hydration (the server's render), the
 * reader's right after, as `useTimeZone`.
 */
export function useToday(): string {
  return useSyncExternalStore(noSubscription, () => dayInZone(Date.now(), Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), utcToday);
}

/** UTC's calendar day: the "today" the service checks some dates against (docs/api.md). */
export function useServiceToday(): string {
  return useSyncExternalStore(noSubscription, utcToday, utcToday);
}

const utcToday = () => dayInZone(Date.now(), "UTC");

export interface Format {
  locale: string;
  timeZone: string;
  /** 1234.5 → "1.234,5" (nl) / "1,234.5" (en); up to `maximumFractionDigits` (3) decimals. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** Large values shortened: 1.2 M, 34 k (chart axes). */
  compact(value: number): string;
  /** `YYYY-MM-DD` as that calendar day ("4 mrt 2026"), or an instant's day in the reader's zone. */
  date(value: string | null | undefined): string;
  /** An instant with date and time to the minute, in the reader's zone (or UTC), zone named. */
  dateTime(value: string | number | null | undefined): string;
  /** An instant's time of day ("14:05"), for axes. */
  time(value: number): string;
  /** `YYYY-MM` as "mrt 2026". */
  month(yearMonth: string): string;
}

const cache = new Map<string, Format>();

/** The formatters for one language and zone (made once per pair: Intl objects are costly to build). */
function makeFormat(locale: string, timeZone: string): Format {
  const key = `${locale}|${timeZone}`;
  const known = cache.get(key);
  if (known) return known;
  const safeLocale = Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : SERVER_LOCALE;
  const numberFormats = new Map<string, Intl.NumberFormat>();
  const plainNumber = new Intl.NumberFormat(safeLocale, { maximumFractionDigits: 3 });
  const numberFormat = (options?: Intl.NumberFormatOptions) => {
    // The plain format without a key: charts and tables call this once per value (a 30-day board, ~10⁵ times).
    if (!options) return plainNumber;
    const id = JSON.stringify(options);
    let found = numberFormats.get(id);
    if (!found) numberFormats.set(id, (found = new Intl.NumberFormat(safeLocale, { maximumFractionDigits: 3, ...options })));
    return found;
  };
  const compactFormat = new Intl.NumberFormat(safeLocale, { notation: "compact", maximumSignificantDigits: 3 });
  const dayFormat = new Intl.DateTimeFormat(safeLocale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const dayInZone = new Intl.DateTimeFormat(safeLocale, { day: "numeric", month: "short", year: "numeric", timeZone });
  const dateTimeFormat = new Intl.DateTimeFormat(safeLocale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
  const timeFormat = new Intl.DateTimeFormat(safeLocale, { hour: "2-digit", minute: "2-digit", timeZone });
  const monthFormat = new Intl.DateTimeFormat(safeLocale, { month: "short", year: "numeric", timeZone: "UTC" });

  const format: Format = {
    locale: safeLocale,
    timeZone,
    number: (value, options) => (Number.isFinite(value) ? numberFormat(options).format(value) : "—"),
    compact: (value) => (Number.isFinite(value) ? compactFormat.format(value) : "—"),
    date(value) {
      if (!value) return "—";
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        const day = new Date(`${value}T00:00:00Z`);
        return Number.isNaN(day.getTime()) ? value : dayFormat.format(day);
      }
      const instant = new Date(value);
      return Number.isNaN(instant.getTime()) ? value : dayInZone.format(instant);
    },
    dateTime(value) {
      if (value === null || value === undefined || value === "") return "—";
      const instant = new Date(value);
      return Number.isNaN(instant.getTime()) ? String(value) : dateTimeFormat.format(instant);
    },
    time: (value) => timeFormat.format(value),
    month(yearMonth) {
      const day = new Date(`${yearMonth}-01T00:00:00Z`);
      return Number.isNaN(day.getTime()) ? yearMonth : monthFormat.format(day);
    },
  };
  cache.set(key, format);
  return format;
}

/** The reader's formatters; `timeZone` overrides the browser's (the explorer's UTC switch). */
export function useFormat(timeZone?: string): Format {
  const locale = useLocale();
  const browserZone = useTimeZone();
  const zone = timeZone ?? browserZone;
  return useMemo(() => makeFormat(locale, zone), [locale, zone]);
}

/** Axis numbers: short forms for big values ("1,2 mln"), four significant digits otherwise. */
export function axisNumber(value: number, format: Format): string {
  return Math.abs(value) >= 100_000 ? format.compact(value) : format.number(value, { maximumSignificantDigits: 4 });
}

/** The decimal and grouping symbols of a language ("," and "." for nl-NL). */
function numberSymbols(locale: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    decimal: parts.find((part) => part.type === "decimal")?.value ?? ".",
    group: parts.find((part) => part.type === "group")?.value ?? ",",
  };
}

/**
 * A number typed by a person in their language: "1,5" in Dutch and "1.5" in English are one and a
 * half; "1.250,5" (nl) and "1,250.5" (en) group thousands. Plain digits with a point are always
 * understood, so a decimal point typed on an English keyboard in Rotterdam still works. Refused
 * (null): exponents ("1e9"), signs other than a leading minus, letters, two decimal marks, and
 * grouping that is not in threes.
 */
export function parseLocaleNumber(text: string, locale: string): number | null {
  const { decimal, group } = numberSymbols(locale);
  // Spaces (incl. no-break and narrow no-break) group thousands in French and Finnish.
  let value = text.trim().replace(/[\s\u00a0\u202f]/g, (space) => (group.trim() === "" ? "" : space));
  if (!/^-?[\d.,\s\u00a0\u202f]+$/.test(value) || !/\d/.test(value)) return null;
  const groupMark = group.trim() === "" ? null : group;
  const hasDecimalMark = value.includes(decimal);
  const hasGroupMark = groupMark !== null && value.includes(groupMark);
  if (hasDecimalMark && hasGroupMark) {
    // Both marks: the language's own convention, strictly.
    const [whole, fraction, extra] = value.split(decimal);
    if (extra !== undefined || fraction === undefined || !/^\d+$/.test(fraction)) return null;
    if (!new RegExp(`^-?\\d{1,3}(${escape(groupMark!)}\\d{3})+$`).test(whole!)) return null;
    value = `${whole!.split(groupMark!).join("")}.${fraction}`;
  } else if (hasDecimalMark) {
    const pieces = value.split(decimal);
    if (pieces.length !== 2 || !/^-?\d*$/.test(pieces[0]!) || !/^\d+$/.test(pieces[1]!)) return null;
    value = `${pieces[0] || "0"}.${pieces[1]}`;
  } else if (hasGroupMark) {
    if (groupMark === "." && /^-?\d+\.\d+$/.test(value) && !/^-?\d{1,3}(\.\d{3})+$/.test(value)) {
      // "2.5" in a decimal-comma language: a point typed as a decimal mark, not grouping.
    } else if (groupMark === "," && /^-?\d+,\d+$/.test(value) && !/^-?\d{1,3}(,\d{3})+$/.test(value)) {
      // "1,5" in a decimal-point language: a comma typed as a decimal mark (it cannot be grouping).
      value = value.replace(",", ".");
    } else {
      if (!new RegExp(`^-?\\d{1,3}(${escape(groupMark!)}\\d{3})+$`).test(value)) return null;
      value = value.split(groupMark!).join("");
    }
  }
  if (!/^-?\d+(\.\d+)?$/.test(value)) return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * A number whose one mark could be read either way ("1,500" in English, "1.500" in Dutch: one
 * thousand five hundred, or one and a half): the words a form refuses it with, naming the mark,
 * or null when the text is not ambiguous.
 */
export function ambiguousNumber(text: string, locale: string): string | null {
  const value = text.trim();
  const { group } = numberSymbols(locale);
  if ((group === "," && /^-?\d{1,3},\d{3}$/.test(value)) || (group === "." && /^-?\d{1,3}\.\d{3}$/.test(value))) {
    const whole = value.replace(group, "");
    const decimal = value.replace(group, ".");
    const mark = group === "," ? "comma" : "point";
    return `"${value}" could mean ${whole} or ${decimal} (the ${mark} may group thousands or mark decimals): write ${whole} or ${group === "," ? decimal : decimal.replace(".", ",")}.`;
  }
  return null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
