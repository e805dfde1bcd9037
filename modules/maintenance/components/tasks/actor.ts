import type { TTaskTransition } from "@/modules/maintenance/contract/maintenance";

/** How the log names who made a step: the person the caller named, else the caller itself. */
export function describeActor(step: Pick<TTaskTransition, "by" | "client">): { name: string; detail: string | null } {
  if (step.by === null) return { name: "Not recorded", detail: "history from before names were kept" };
  if (step.by === step.client) return step.client === "dashboard" ? { name: "Plantdesk dashboard", detail: null } : { name: "API client", detail: step.by };
  // The dashboard writes its users as `Name <e-mail>`.
  const named = /^(.+?)\s*<([^<>]+)>$/.exec(step.by);
  return named ? { name: named[1]!, detail: named[2]! } : { name: step.by, detail: null };
}
