/**
 * The one rule of who sees and who changes a board or a saved query (docs/boards.md), every role
 * against every sharing, and the library's search and tag normalisation.
 */
import { describe, expect, it } from "vitest";
import { ROLES, type Role } from "@/lib/contract/roles";
import { canEditBoard, canEditSavedQuery, canSeeBoard } from "./access";
import { ZBoardSharing, type TBoardSharing } from "./boards";
import { ZSavedQueryBody, matchesSearch } from "./saved-queries";

const OWNER = "owner@example.com";
const board = (sharing: TBoardSharing) => ({ owner: OWNER, sharing });
const others = (role: Role) => ({ email: `${role}@example.com`, role });

describe("board access", () => {
  it("shows a private board to its owner alone, admins included among the others kept out", () => {
    const mine = board({ visibility: "private", role: null });
    expect(canSeeBoard({ email: OWNER, role: "planner" }, mine)).toBe(true);
    for (const role of ROLES) expect(canSeeBoard(others(role), mine), role).toBe(false);
  });

  it("shows a role board to that role and admins; a plant board to everyone", () => {
    const planners = board({ visibility: "role", role: "planner" });
    expect(ROLES.filter((role) => canSeeBoard(others(role), planners))).toEqual(["planner", "admin"]);
    expect(ROLES.filter((role) => canSeeBoard(others(role), board({ visibility: "plant", role: null })))).toEqual([...ROLES]);
  });

  it("lets the owner (if their role writes boards) and admins edit, nobody else", () => {
    const plant = board({ visibility: "plant", role: null });
    expect(ROLES.filter((role) => canEditBoard(others(role), plant))).toEqual(["admin"]);
    expect(canEditBoard({ email: OWNER, role: "engineer" }, plant)).toBe(true);
    // A planner owner (say, demoted after making it) reads it only: planners write no boards.
    expect(canEditBoard({ email: OWNER, role: "planner" }, plant)).toBe(false);
    expect(canEditBoard(others("admin"), board({ visibility: "private", role: null }))).toBe(false);
  });

  it("names a role only for a role board", () => {
    expect(ZBoardSharing.safeParse({ visibility: "role", role: null }).success).toBe(false);
    expect(ZBoardSharing.safeParse({ visibility: "plant", role: "planner" }).success).toBe(false);
    expect(ZBoardSharing.safeParse({ visibility: "role", role: "engineer" }).success).toBe(true);
  });
});

describe("saved queries", () => {
  it("are changed by their owner and admins", () => {
    expect(ROLES.filter((role) => canEditSavedQuery(others(role), { owner: OWNER }))).toEqual(["admin"]);
    expect(canEditSavedQuery({ email: OWNER, role: "planner" }, { owner: OWNER })).toBe(true);
  });

  it("keep tags lower-case and once, and refuse tags that are not words", () => {
    const parsed = ZSavedQueryBody.parse({ title: " T ", description: "", tags: [" Pumps", "pumps", "Line 2", "Ölpumpe"], query: "States" });
    expect(parsed).toEqual({ title: "T", description: "", tags: ["pumps", "line 2", "ölpumpe"], query: "States" });
    for (const tag of ["#x", "", "-lead", "x".repeat(31)]) expect(ZSavedQueryBody.safeParse({ title: "T", description: "", tags: [tag], query: "States" }).success, tag).toBe(false);
  });

  it("match a search by every word in the title, description or a tag, and by one exact tag", () => {
    const query = { title: "Pump temperatures", description: "Hourly mean", tags: ["pumps", "line 2"] };
    expect(matchesSearch(query, {})).toBe(true);
    expect(matchesSearch(query, { q: "PUMP hourly" })).toBe(true);
    expect(matchesSearch(query, { q: "line 2" })).toBe(true);
    expect(matchesSearch(query, { q: "pump alarms" })).toBe(false);
    expect(matchesSearch(query, { tag: "pumps" })).toBe(true);
    expect(matchesSearch(query, { tag: "pump" })).toBe(false);
  });
});
