/** Small shared helpers of the page specs: dates as the app computes them, and API shapes. */
import type { APIRequestContext, Page as BrowserPage } from "@playwright/test";
import type { TJobDone, TPart, TTask } from "@/modules/maintenance/contract/maintenance";

export type { TJobDone, TPart, TTask };

export interface Page<T> {
  data: T[];
  page: number;
  totalPages: number;
  pageSize: number;
}

export const todayIso = () => new Date().toISOString().slice(0, 10);

export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Every record of a listing, through the dashboard's API with the test's session. */
export async function allPages<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    const response = await request.get(`${path}${path.includes("?") ? "&" : "?"}page=${page}&pageSize=1000`);
    if (!response.ok()) throw new Error(`GET ${path} → ${response.status()}`);
    const body = (await response.json()) as Page<T>;
    rows.push(...body.data);
    if (page >= body.totalPages) return rows;
  }
}

/** How many records a listing holds (pageSize 1: totalPages is the count). */
export async function countOf(request: APIRequestContext, path: string): Promise<number> {
  const response = await request.get(`${path}${path.includes("?") ? "&" : "?"}page=1&pageSize=1`);
  if (!response.ok()) throw new Error(`GET ${path} → ${response.status()}`);
  return ((await response.json()) as Page<unknown>).totalPages;
}

export const formatHours = (hours: number) => `${hours.toLocaleString("en", { maximumFractionDigits: 1 })} h`;

/** The dashboard's telemetry query answer, as far as the specs read it. */
export interface QueryResponse {
  data: { columns: { name: string }[]; rows: unknown[][] };
}

/** Replaces the explorer's query with `text`, typed as a person would paste it. */
export async function typeQuery(page: BrowserPage, text: string): Promise<void> {
  await page.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

/** The last two whole days, ending at the last full hour: the page and the API then see the same rows. */
export function fixedWindow(): { startTime: string; endTime: string } {
  const end = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  return { startTime: new Date(end - 2 * 86_400_000).toISOString(), endTime: new Date(end).toISOString() };
}
