import type { Metadata } from "next";
import { TaskBoard } from "@/components/tasks/task-board";
import { plantPage } from "../plant-page";

export const metadata: Metadata = { title: "Task board" };

export default plantPage(TaskBoard);
