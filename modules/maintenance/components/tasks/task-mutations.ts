"use client";
/**
 * Task writes. A transition shows at once (optimistic: the card moves to its new column) and is
 * rolled back if the server refuses it; either way the list is then re-read from the server.
 * Task creation names its attempt with an Idempotency-Key, so a retried submit creates one task.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/lib/client/api";
import { operationApiPath } from "@/lib/contract/api";
import { maintenanceKeys } from "@/modules/maintenance/client/maintenance";
import type { TCloseOut, TTask, TTaskCreation, TTaskStatus, TTaskUpdate } from "@/modules/maintenance/contract/maintenance";
import type { TWriteResult } from "@/lib/contract/common";

interface TransitionVariables {
  task: TTask;
  to: TTaskStatus;
  remark?: string;
  /** A postponement's new due date. */
  dueDate?: string;
}

export function useTransitionTask(plantId: string, onSettled?: (error: unknown, variables: TransitionVariables) => void) {
  const queryClient = useQueryClient();
  const listKey = maintenanceKeys.tasks(plantId);
  return useMutation({
    mutationFn: ({ task, to, remark, dueDate }: TransitionVariables) =>
      apiSend<TWriteResult>("POST", operationApiPath("transitionTask", { plantId, taskId: task.id }), {
        to,
        remark: remark || null,
        ...(dueDate ? { dueDate } : {}),
      }),
    onMutate: async ({ task, to }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<TTask[]>(listKey);
      queryClient.setQueryData<TTask[]>(listKey, (tasks) => tasks?.map((entry) => (entry.id === task.id ? { ...entry, status: to } : entry)));
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSettled: (_data, error, variables) => {
      onSettled?.(error, variables);
      void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
}

export function useCreateTask(plantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ task, attemptId }: { task: TTaskCreation; attemptId: string }) =>
      apiSend<TWriteResult>("POST", operationApiPath("createTask", { plantId }), task, { "idempotency-key": attemptId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.tasks(plantId) }),
  });
}

/** An edit of a task (assignee, priority, due date, title); the list is re-read after it. */
export function useUpdateTask(plantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, update }: { taskId: string; update: TTaskUpdate }) =>
      apiSend<TWriteResult>("PATCH", operationApiPath("updateTask", { plantId, taskId }), update),
    onSettled: () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.tasks(plantId) }),
  });
}

/**
 * The close-out: named by an attempt id (Idempotency-Key), so a retried submit writes one job and
 * moves the stock once. The job history and the stock are re-read after it.
 */
export function useCloseOutTask(plantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, closeOut, attemptId }: { taskId: string; closeOut: TCloseOut; attemptId: string }) =>
      apiSend<TWriteResult>("POST", operationApiPath("closeOutTask", { plantId, taskId }), closeOut, { "idempotency-key": attemptId }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.tasks(plantId) }),
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.parts(plantId) }),
        queryClient.invalidateQueries({ queryKey: maintenanceKeys.jobsDone(plantId) }),
      ]),
  });
}
