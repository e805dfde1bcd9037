/**
 * What every benchmark shares so its figures can be trusted on a shared machine (README,
 * "Benchmarks"): the machine and its load average printed with the figures, medians, answers
 * checked before they are timed, and no ratio printed from runs that had errors — a ratio of a
 * run whose requests were refused (429, 500) measures the refusal, not the path.
 */
import os from "node:os";

/** "2 cores, load average 3.1 / 2.4 / 1.9" (1, 5 and 15 minutes), other jobs on the machine included. */
export function machine(): string {
  return `${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")}`;
}

/** Prints the bench's name, the machine and its load now; call it at the start and at the end. */
export function printMachine(label: string): void {
  console.log(`${label} — ${machine()} (${new Date().toISOString()})`);
}

export function median(values: readonly number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Errors seen during a bench, by what failed. A ratio is printed only when the runs it compares had
 * none (`ratio`); at the end `finish` prints them and sets a failing exit code, so a run with errors
 * can never pass for a measurement.
 */
export class ErrorLedger {
  private readonly counts = new Map<string, number>();
  private readonly samples = new Map<string, string>();

  note(where: string, detail: string, count = 1): void {
    if (count <= 0) return;
    this.counts.set(where, (this.counts.get(where) ?? 0) + count);
    if (!this.samples.has(where)) this.samples.set(where, detail.slice(0, 300));
  }

  total(...wheres: string[]): number {
    if (!wheres.length) return [...this.counts.values()].reduce((a, b) => a + b, 0);
    return wheres.reduce((sum, w) => sum + (this.counts.get(w) ?? 0), 0);
  }

  /**
   * `numerator ÷ denominator` to two decimals, or a refusal naming the errors when either side (the
   * `wheres` given) had any, or when a side is not a positive finite number.
   */
  ratio(numerator: number, denominator: number, ...wheres: string[]): string {
    const errors = this.total(...wheres);
    if (errors > 0) return `no ratio (${errors} error${errors === 1 ? "" : "s"})`;
    if (!(numerator > 0 && denominator > 0 && Number.isFinite(numerator) && Number.isFinite(denominator))) return "no ratio (no figure)";
    return (numerator / denominator).toFixed(2);
  }

  /** Prints every error and sets the exit code when there was one; returns whether the run was clean. */
  finish(): boolean {
    if (!this.counts.size) return true;
    console.error("\nErrors during the run (no ratio was printed from the runs they touched):");
    for (const [where, count] of this.counts) console.error(`  ${where}: ${count} × ${this.samples.get(where)}`);
    process.exitCode = 1;
    return false;
  }
}

/** A fetch answer that must be 2xx: anything else throws with its status and the start of its body. */
export async function expectOk(response: Response, what: string): Promise<Response> {
  if (response.status >= 200 && response.status < 300) return response;
  const body = await response.text().catch(() => "");
  throw new Error(`${what} answered HTTP ${response.status}: ${body.slice(0, 300)}`);
}
