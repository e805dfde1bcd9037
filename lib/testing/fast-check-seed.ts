/**
 * Vitest setup: property tests draw from a fresh random seed on every run, so a developer's runs
 * keep exploring; `FC_SEED` pins the seed (CI sets it in `.ci/run`), so a landing depends on the
 * code and not on which random cases a run happened to draw. A failure prints the seed and path
 * that replay it.
 */
import fc from "fast-check";

const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== "") {
  if (!/^-?\d+$/.test(seed)) throw new Error(`FC_SEED must be an integer, not ${JSON.stringify(seed)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
}
