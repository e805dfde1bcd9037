import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/states";
import { canReachPlant } from "@/lib/contract/roles";
import { requireSignedInUser } from "@/app/page-server";

/** A plant's pages: only for users whose plant list holds it (the API refuses the rest anyway). */
export default async function PlantLayout({ children, params }: { children: ReactNode; params: Promise<{ plantId: string }> }) {
  const [{ plantId }, user] = await Promise.all([params, requireSignedInUser()]);
  const id = decodeURIComponent(plantId);
  if (!canReachPlant(user.role, user.plants, id)) {
    return (
      <EmptyState title="No access to this plant">
        Plant <strong>{id}</strong> is not on your list. Pick one of your plants in the switcher above.
      </EmptyState>
    );
  }
  return children;
}
