import { redirect } from "next/navigation";
import { plantPath } from "@/components/shell/nav-items";
import { EmptyState } from "@/components/ui/states";
import { requireSignedInUser, server } from "@/app/page-server";

/** `/`: straight on to the overview of the user's first plant. */
export default async function HomePage() {
  const user = await requireSignedInUser();
  const first = (await server().reachablePlants(user))[0];
  if (first) redirect(plantPath(first.id));
  return <EmptyState title="No plants yet">Your account is not linked to any plant. Ask an administrator to add one.</EmptyState>;
}
