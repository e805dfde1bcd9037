/**
 * Compile time of hostile KQL (issue 19): a `let` doubling chain, nested user-function calls,
 * nested `sqrt`, deep parentheses, long chains. Prints one line per query: compile time (median
 * of 3), outcome (SQL length or the error), and the compiler's counted work.
 *   npx tsx bench/kql-compile.ts [steps=24]
 */
import { compileKql, KqlError } from "../lib/kql";

const steps = Number(process.argv[2] ?? 24);
const chain = (n: number) => ["let a0 = 1;", ...Array.from({ length: n }, (_, i) => `let a${i + 1} = a${i} + a${i};`), `print x = a${n}`].join(" ");
const nested = (n: number) => `let f = (x:long){ x + x }; print ${"f(".repeat(n)}1${")".repeat(n)}`;
const sqrts = (n: number) => `print ${"sqrt(".repeat(n)}2.0${")".repeat(n)}`;
const fnChain = (n: number) => ["let f0 = (x:long){ x };", ...Array.from({ length: n }, (_, i) => `let f${i + 1} = (x:long){ f${i}(f${i}(x)) };`), `print f${n}(1)`].join(" ");
const cases: [string, string][] = [
  [`doubling chain, ${steps} steps`, chain(steps)],
  [`nested function calls, ${steps} levels`, nested(steps)],
  [`nested function calls, 100 levels`, nested(100)],
  [`nested sqrt, ${steps} levels`, sqrts(steps)],
  [`functions calling the previous twice, ${steps} levels`, fnChain(steps)],
  ["strrep nested 3 deep", `print s = strlen(strrep(strrep(strrep("abcdefghij", 1024), 1024), 60))`],
  ["5,000-term sum", `print x = ${Array.from({ length: 5000 }, (_, i) => i).join(" + ")}`],
];
for (const [name, text] of cases) {
  const times: number[] = [];
  let outcome = "";
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    try {
      const compiled = compileKql(text, { sources: {} });
      outcome = `ok, ${compiled.sql.length.toLocaleString("en-US")} chars of SQL${"work" in compiled ? `, work ${String((compiled as { work: number }).work)}` : ""}`;
    } catch (error) {
      outcome = error instanceof KqlError ? `KqlError: ${error.detail}` : `${(error as Error).name}: ${(error as Error).message.slice(0, 120)}`;
    }
    times.push(performance.now() - start);
    if (times[0]! > 5000) break;
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(52)} ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(9)} ms  ${outcome}`);
}
