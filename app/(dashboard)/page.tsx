import { redirect } from "next/navigation";
import { plantPath } from "@/components/shell/nav-items";
import { EmptyState } from "@/components/ui/states";
import { requireSignedInUser } from "@/lib/auth/session";
import { reachablePlants } from "@/lib/api-handler/handler";
import { getUpstream } from "@/lib/upstream";

/** `/`: straight on to the overview of the user's first plant. */
export default async function HomePage() {
  const [user, upstream] = await Promise.all([requireSignedInUser(), getUpstream()]);
  const first = reachablePlants(user, upstream)[0];
  if (first) redirect(plantPath(first.id));
  return <EmptyState title="No plants yet">Your account is not linked to any plant. Ask an administrator to add one.</EmptyState>;
}
