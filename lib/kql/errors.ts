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

/** A query naming a database the caller may not read (`database("other").T`): 403, as the Kusto endpoints answer. */
export class KqlForbiddenError extends KqlError {
  constructor(database: string, line: number, column: number, from: number, to: number) {
    super(`Principal is not authorized to read database '${database.slice(0, 100)}'.`, line, column, from, to);
    this.name = "KqlForbiddenError";
  }
}
