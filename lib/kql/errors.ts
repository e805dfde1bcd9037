/** A query the engine rejects: malformed, or naming an unknown table, column or function. */
export class KqlError extends Error {
  /** 1-based line and column of the offending text; `from`/`to` are 0-based offsets. */
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    readonly from = 0,
    readonly to = from,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = "KqlError";
    this.detail = message;
  }
  /** The message without the position suffix. */
  readonly detail: string;
  /** Compile work spent before the refusal (budget.ts), so a refused query is charged too. */
  work = 0;
}
