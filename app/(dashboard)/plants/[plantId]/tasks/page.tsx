import type { Metadata } from "next";
import { TaskBoard } from "@/components/tasks/task-board";

export const metadata: Metadata = { title: "Task board" };

export default async function TaskBoardPage({ params }: { params: Promise<{ plantId: string }> }) {
  const { plantId } = await params;
  return <TaskBoard plantId={decodeURIComponent(plantId)} />;
}
