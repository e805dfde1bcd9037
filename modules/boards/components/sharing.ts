/** A board's sharing in words (docs/boards.md, "Who sees what"), for the list and the board's header. */
import type { Role } from "@/lib/contract/roles";
import type { TBoardSharing } from "@/modules/boards/contract/boards";

export const ROLE_PLURAL: Record<Role, string> = { planner: "planners", supervisor: "supervisors", engineer: "engineers", admin: "admins" };

/** Short, for a badge: "Private", "Planners", "Plant". */
export function sharingBadge(sharing: TBoardSharing): string {
  if (sharing.visibility === "private") return "Private";
  if (sharing.visibility === "role") return `${ROLE_PLURAL[sharing.role!].replace(/^./, (c) => c.toUpperCase())} only`;
  return "Whole plant";
}

/** A sentence: who sees the board besides its owner. */
export function sharingSentence(sharing: TBoardSharing, plantId: string, owner: string, mine: boolean): string {
  const whose = mine ? "yours" : `owned by ${owner}`;
  if (sharing.visibility === "private") return mine ? "Private: only you see it" : `Private, ${whose}`;
  if (sharing.visibility === "role") return `Shared with the ${ROLE_PLURAL[sharing.role!]} of plant ${plantId} and admins, ${whose}`;
  return `Shared with everyone at plant ${plantId}, ${whose}`;
}
