"use client";
/**
 * Task writes. A transition shows at once (optimistic: the card moves to its new column) and is
 * rolled back if the server refuses it; either way the list is then re-read from the server.
 * Task creation names its attempt with an Idempotency-Key, so a retried submit creates one task.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/lib/client/api";
import { maintenanceKeys, plantApiPath } from "@/lib/client/maintenance";
import type { TTask, TTaskCreation, TTaskStatus } from "@/lib/contract/maintenance";
import type { TWriteResult } from "@/lib/contract/common";

export interface TransitionVariables {
  task: TTask;
  to: TTaskStatus;
  remark?: string;
}

export function useTransitionTask(plantId: string, onSettled?: (error: unknown, variables: TransitionVariables) => void) {
  const queryClient = useQueryClient();
  const listKey = maintenanceKeys.tasks(plantId);
  return useMutation({
    mutationFn: ({ task, to, remark }: TransitionVariables) =>
      apiSend<TWriteResult>("POST", plantApiPath(plantId, `tasks/${encodeURIComponent(task.id)}/transitions`), { to, remark: remark || null }),
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
      apiSend<TWriteResult>("POST", plantApiPath(plantId, "tasks"), task, { "idempotency-key": attemptId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.tasks(plantId) }),
  });
}
