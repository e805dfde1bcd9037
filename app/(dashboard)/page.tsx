import { FirstPlantRedirect } from "@/components/shell/first-plant-redirect";

/** `/`: straight on to the overview of the user's first plant. */
export default function HomePage() {
  return <FirstPlantRedirect />;
}
