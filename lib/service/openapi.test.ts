/**
 * The OpenAPI document is built from the schemas its own operations use, so a second copy of the
 * contract in the same process (the production server holds its own and Next's bundle; zod's
 * global registry is shared through globalThis) cannot make two schemas claim one id.
 */
import { describe, expect, it, vi } from "vitest";

describe("OpenAPI document", () => {
  it("is built while another copy of the contract has registered the same ids", async () => {
    const first = await import("./openapi");
    vi.resetModules();
    // A fresh copy of the contract registers "Date", "JobDone", … again, as Next's bundle does.
    await import("@/lib/contract/common");
    await import("@/modules/maintenance/contract/maintenance");
    const document = first.getServiceOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(["Date", "JobDone", "ErrorBody", "TelemetryQueryRequest"]));
  });
});
