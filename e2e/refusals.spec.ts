/**
 * Every refusal of the service keeps its status and code all the way through `/api/` on the server
 * as `npm start` starts it. A page is opened first: server-rendered pages and the `/api/` router
 * then share the process's one service runtime and upstream client, which is how a refusal once
 * turned into a 500 (an error class recognised by identity across two module copies).
 */
import { expect, test } from "./fixtures";
import { allPages, type TPart, type TTask } from "./helpers";

test.use({ role: "supervisor" });

const now = Date.now();
const range = { startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now).toISOString() };

interface ErrorBody {
  status: string;
  code: string;
  message: string;
  data: unknown[];
}

async function expectRefusal(response: { status(): number; json(): Promise<unknown> }, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status(), code: body.code }, body.message).toEqual({ status, code });
  expect(body.status).toBe("ERROR");
  return body;
}

test("refusals keep their status and code through /api/", async ({ page, api }) => {
  await page.goto("/plants/RTM1/tasks");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  await expectRefusal(await api.raw.get("/api/plants/RTM1/tasks/RTM1-T999999"), 404, "TASK_NOT_FOUND");
  await expectRefusal(await api.raw.get("/api/plants/RTM1/parts/NOPE/stock-levels"), 404, "PART_NOT_FOUND");

  const syntax = await expectRefusal(
    await api.raw.post("/api/telemetry/query", { data: { query: 'States\n| wher Name == "x"', ...range } }),
    400,
    "INVALID_QUERY",
  );
  expect(syntax.data[0]).toMatchObject({ line: 2, column: 3 });
  expect(syntax.message).toContain("line 2, column 3");

  const part = (await allPages<TPart>(api.raw, "/api/plants/RTM1/parts"))[0]!;
  const otherUnit = part.unit === "KG" ? "PCS" : "KG";
  await expectRefusal(
    await api.raw.put(`/api/plants/RTM1/parts/${part.id}/stock-level`, { data: { id: part.id, quantity: 1, unit: otherUnit, remark: "e2e", isShort: false } }),
    412,
    "UNIT_MISMATCH",
  );

  const pending = (await allPages<TTask>(api.raw, "/api/plants/RTM1/tasks?taskStatus=PENDING"))[0]!;
  await expectRefusal(await api.raw.post(`/api/plants/RTM1/tasks/${pending.id}/transitions`, { data: { to: "CLOSED" } }), 412, "INVALID_TRANSITION");

  await expectRefusal(await api.raw.get("/api/plants/NOPE1/tasks"), 403, "FORBIDDEN");
  await expectRefusal(await api.raw.get("/api/plants/RTM1/tasks?taskStatus=WRONG"), 400, "INVALID_INPUT");
});
