/**
 * Who sees and who changes a board or a saved query (docs/boards.md, "Who sees what"). One pure
 * rule that the server applies to every read, list, change and delete; the pages only show what
 * the server answered (`canEdit`). A board the user may not see does not exist for them (404).
 */
import { hasPermission, type Role } from "@/lib/contract/roles";
import type { TBoardSharing } from "./boards";

export interface Viewer {
  email: string;
  role: Role;
}

/** Private: the owner alone (admins too are kept out); role: the owner, that role and admins; plant: everyone of the plant. */
export function canSeeBoard(viewer: Viewer, board: { owner: string; sharing: TBoardSharing }): boolean {
  if (board.owner === viewer.email) return true;
  switch (board.sharing.visibility) {
    case "private":
      return false;
    case "role":
      return viewer.role === "admin" || viewer.role === board.sharing.role;
    case "plant":
      return true;
  }
}

/** The owner and admins change what they see, if their role writes boards at all. */
export function canEditBoard(viewer: Viewer, board: { owner: string; sharing: TBoardSharing }): boolean {
  return canSeeBoard(viewer, board) && hasPermission(viewer.role, "dashboards:write") && (board.owner === viewer.email || viewer.role === "admin");
}

/** A saved query is the plant's: its owner and admins change or delete it. */
export function canEditSavedQuery(viewer: Viewer, query: { owner: string }): boolean {
  return query.owner === viewer.email || viewer.role === "admin";
}
