/**
 * The attachments' rows (migration.ts). The limit of 50 per task holds across instances: the
 * upload locks its task's row (an UPDATE of it) before it counts, so two uploads to one task are
 * counted one after the other on PostgreSQL as on SQLite.
 */
import { ApiError } from "@/lib/contract/errors";
import type { TAttachment } from "@/modules/maintenance/contract/attachments";
import { MAX_ATTACHMENTS_PER_TASK, type AttachmentType } from "@/modules/maintenance/contract/attachment-files";
import type { SqlDb } from "@/lib/platform/sql";

interface NewAttachment {
  id: string;
  plantId: string;
  taskId: string;
  name: string;
  contentType: AttachmentType;
  sha256: string;
  createdAt: string;
  content: Uint8Array;
}

interface AttachmentFile {
  attachment: TAttachment;
  content: Uint8Array;
}

export interface AttachmentStore {
  /** Keeps the file; false when the task is gone; 409 TOO_MANY_ATTACHMENTS when it has the most already. */
  insert(file: NewAttachment): Promise<boolean>;
  /** The task's attachments, oldest first, without their bytes. */
  listForTask(plantId: string, taskId: string): Promise<TAttachment[]>;
  /** The attachments of several tasks at once (a page of job records), by task. */
  listForTasks(plantId: string, taskIds: readonly string[]): Promise<Map<string, TAttachment[]>>;
  /** One attachment of the plant with its bytes; null when the plant has none of that id. */
  get(plantId: string, id: string): Promise<AttachmentFile | null>;
}

const COLUMNS = `id, task_id AS "taskId", name, content_type AS "contentType", size, sha256, created_at AS "createdAt"`;

type Row = TAttachment & { taskId: string };

const toAttachment = ({ id, name, contentType, size, sha256, createdAt }: Row): TAttachment => ({ id, name, contentType, size: Number(size), sha256, createdAt });

export function createAttachmentStore(engine: SqlDb): AttachmentStore {
  return {
    insert: (file) =>
      engine.transaction(async (tx) => {
        const task = { plantId: file.plantId, taskId: file.taskId };
        const locked = await tx.run(`UPDATE tasks SET updated_at = updated_at WHERE plant_id = @plantId AND id = @taskId`, task);
        if (locked.changes === 0) return false;
        const held = await tx.get<{ n: number }>(`SELECT count(*) AS n FROM task_attachments WHERE plant_id = @plantId AND task_id = @taskId`, task);
        if (Number(held?.n ?? 0) >= MAX_ATTACHMENTS_PER_TASK) {
          throw new ApiError("TOO_MANY_ATTACHMENTS", `Task ${file.taskId} already has ${MAX_ATTACHMENTS_PER_TASK} attachments, the most a task may have.`, [
            { field: "taskId", problem: `has ${MAX_ATTACHMENTS_PER_TASK} attachments already` },
          ]);
        }
        await tx.run(
          `INSERT INTO task_attachments (id, plant_id, task_id, name, content_type, size, sha256, created_at, content)
           VALUES (@id, @plantId, @taskId, @name, @contentType, @size, @sha256, @createdAt, @content)`,
          { ...file, size: file.content.byteLength, content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength) },
        );
        return true;
      }),
    async listForTask(plantId, taskId) {
      const rows = await engine.all<Row>(`SELECT ${COLUMNS} FROM task_attachments WHERE plant_id = @plantId AND task_id = @taskId ORDER BY created_at, id`, { plantId, taskId });
      return rows.map(toAttachment);
    },
    async listForTasks(plantId, taskIds) {
      const byTask = new Map<string, TAttachment[]>();
      if (taskIds.length === 0) return byTask;
      const params: Record<string, unknown> = { plantId };
      const taskIn = engine.oneOf("task_id", "taskIds", taskIds, params);
      const rows = await engine.all<Row>(`SELECT ${COLUMNS} FROM task_attachments WHERE plant_id = @plantId AND ${taskIn} ORDER BY task_id, created_at, id`, params);
      for (const row of rows) {
        const list = byTask.get(row.taskId) ?? [];
        list.push(toAttachment(row));
        byTask.set(row.taskId, list);
      }
      return byTask;
    },
    async get(plantId, id) {
      const row = await engine.get<Row & { content: Uint8Array }>(`SELECT ${COLUMNS}, content FROM task_attachments WHERE plant_id = @plantId AND id = @id`, { plantId, id });
      return row ? { attachment: toAttachment(row), content: row.content } : null;
    },
  };
}
