"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { PageSkeleton } from "@/components/ui/skeleton";
import { EmptyState } from "@/components/ui/states";
import { useMe } from "@/lib/client/me";
import { plantPath } from "./nav-items";

export function FirstPlantRedirect() {
  const { data } = useMe();
  const router = useRouter();
  const first = data?.plants[0]?.id;

  useEffect(() => {
    if (first) router.replace(plantPath(first));
  }, [first, router]);

  if (data && !first) {
    return <EmptyState title="No plants yet">Your account is not linked to any plant. Ask an administrator to add one.</EmptyState>;
  }
  return <PageSkeleton label="Opening your plant" />;
}
