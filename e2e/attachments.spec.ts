/**
 * A task's photos and files (issue 34, docs/api.md "Attachments"): a supervisor attaches a photo
 * from the task drawer (the file picker opened from the keyboard), is told in words why a file too
 * large, of the wrong type, or not what its type says is refused, and after the close-out finds the
 * photo on the job record's drawer; an engineer (a reader of the task) sees and downloads it but has
 * no upload button. The download's headers are checked through the dashboard; axe on both drawers;
 * screenshots at 1366, 820 and 390 px.
 */
import { createHash } from "node:crypto";
import type { Page as BrowserPage } from "@playwright/test";
import { expect, expectAccessible, saveScreenshot, test } from "./fixtures";
import type { TJobDone, TTask } from "./helpers";

const PLANT = "RTM1";
/** A real 8×8 PNG (a blue square). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPQyDuBFTEMLQkACMZXgZQ3cyMAAAAASUVORK5CYII=", "base64");

async function screenshotsAtThreeWidths(page: BrowserPage, name: string) {
  for (const width of [1366, 820, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    // No sideways scroll at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, `${name}-${width}`, { fullPage: false });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.describe("supervisor", () => {
  test.use({ role: "supervisor" });

  test("attaches a photo from the task drawer and finds it on the job record after close-out", async ({ page, api, browser, sessionFor }) => {
    const asset = (await api.get<{ data: { tagNumber: string; assetType: string }[] }>(`/api/plants/${PLANT}/assets?pageSize=1000`)).data.find((a) => a.assetType !== "AREA" && a.assetType !== "LINE")!;
    const title = `Seal leak photographed ${Date.now()}`;
    const created = await api.raw.post(`/api/plants/${PLANT}/tasks`, { data: { taskTitle: title, activityKind: "CORRECTIVE", priority: "P2", asset: { tagNumber: asset.tagNumber } } });
    expect(created.ok()).toBeTruthy();
    const id = ((await created.json()) as { data: { id: string }[] }).data[0]!.id;
    expect((await api.raw.post(`/api/plants/${PLANT}/tasks/${id}/transitions`, { data: { to: "PENDING" } })).ok()).toBeTruthy();

    await page.goto(`/plants/${PLANT}/tasks?task=${id}`);
    const drawer = page.getByRole("dialog", { name: title });
    const files = drawer.getByTestId("task-attachments");
    await expect(files.getByText("No photos or files yet.")).toBeVisible();
    const input = files.getByTestId("attachment-input");
    await expect(input).toHaveAttribute("capture", "environment");
    await expect(input).toHaveAttribute("accept", /image\/jpeg/);

    // The picker opens from the keyboard: focus the button, Enter.
    const button = files.getByRole("button", { name: "Attach photo or file" });
    await button.focus();
    const chooser = page.waitForEvent("filechooser");
    await page.keyboard.press("Enter");
    await (await chooser).setFiles({ name: "seal-leak.png", mimeType: "image/png", buffer: PNG });
    await expect(files.getByTestId("attachment-message")).toHaveText("Attached “seal-leak.png”.");
    const item = files.getByTestId("attachment").filter({ hasText: "seal-leak.png" });
    await expect(item).toContainText(`Photo, ${PNG.length} bytes`);
    await expect(item.locator("img")).toHaveJSProperty("complete", true);
    expect(await item.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);

    // Refusals, in words: checked before sending (type, size), and by the service (bytes that are not a PNG).
    await input.setInputFiles({ name: "drawing.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
    await expect(files.getByTestId("attachment-message")).toHaveText(/“drawing.svg” cannot be attached: only photos/);
    await input.setInputFiles({ name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 0x25) });
    await expect(files.getByTestId("attachment-message")).toHaveText(/the file is larger than 10 MB/);
    await input.setInputFiles({ name: "not-a-photo.png", mimeType: "image/png", buffer: Buffer.from("just text\n") });
    await expect(files.getByTestId("attachment-message")).toHaveText(/“not-a-photo.png” was refused: .*not a PNG image/);
    await expect(files.getByTestId("attachment")).toHaveCount(1);
    await expectAccessible(page);
    await screenshotsAtThreeWidths(page, "attachments-task-drawer");

    // The download through the dashboard: the bytes, inline (a photo), never sniffed, sandboxed.
    const listed = (await api.get<{ data: { id: string; sha256: string }[] }>(`/api/plants/${PLANT}/tasks/${id}/attachments`)).data;
    expect(listed).toHaveLength(1);
    const download = await api.raw.get(`/api/plants/${PLANT}/attachments/${listed[0]!.id}`);
    expect(download.status()).toBe(200);
    expect(createHash("sha256").update(await download.body()).digest("hex")).toBe(listed[0]!.sha256);
    expect(download.headers()).toMatchObject({ "content-type": "image/png", "x-content-type-options": "nosniff" });
    expect(download.headers()["content-disposition"]).toMatch(/^inline; filename="seal-leak.png"/);
    expect(download.headers()["content-security-policy"]).toMatch(/^sandbox/);

    // An engineer reads the task's files and opens them, without an upload button.
    const engineerContext = await browser.newContext({ storageState: (await sessionFor("engineer")) as never, viewport: { width: 390, height: 844 } });
    const engineer = await engineerContext.newPage();
    await engineer.goto(`/plants/${PLANT}/tasks?task=${id}`);
    const engineerFiles = engineer.getByRole("dialog", { name: title }).getByTestId("task-attachments");
    await expect(engineerFiles.getByRole("link", { name: "seal-leak.png" })).toBeVisible();
    await expect(engineerFiles.getByRole("button", { name: "Attach photo or file" })).toHaveCount(0);
    const refused = await engineer.request.post(`/api/plants/${PLANT}/tasks/${id}/attachments?filename=x.png`, { headers: { "content-type": "image/png" }, data: PNG });
    expect(refused.status()).toBe(403);
    await engineerContext.close();

    // Close-out, then the job record's drawer lists the photo.
    const closed = await api.raw.post(`/api/plants/${PLANT}/tasks/${id}/close-out`, {
      data: { hoursWorked: 1, personCount: 1, carriedOutBy: { username: "supervisor@plantdesk.demo", firstname: "", lastname: "" } },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    const task = await api.get<TTask>(`/api/plants/${PLANT}/tasks/${id}`);
    expect(task.status).toBe("CLOSED");
    const jobs = (await api.get<{ data: TJobDone[] }>(`/api/plants/${PLANT}/jobs-done?assetTagNumber=${encodeURIComponent(asset.tagNumber)}&pageSize=1000`)).data;
    expect(jobs.find((job) => job.taskId === id)?.attachments?.map((a) => a.name)).toEqual(["seal-leak.png"]);

    await page.goto(`/plants/${PLANT}/tasks?task=${id}`);
    await page.getByRole("dialog", { name: title }).getByRole("link", { name: "Its job record" }).click();
    const jobDrawer = page.getByRole("dialog", { name: title });
    const jobFiles = jobDrawer.getByTestId("job-attachments");
    await expect(jobFiles.getByRole("link", { name: "seal-leak.png" })).toBeVisible();
    await expect(jobFiles.locator("img")).toHaveJSProperty("complete", true);
    await expectAccessible(page);
    await screenshotsAtThreeWidths(page, "attachments-job-drawer");
  });
});
