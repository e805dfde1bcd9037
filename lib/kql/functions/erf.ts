/**
 * The error function and its complement to double precision, for DuckDB (which has neither; the
 * entries in math.ts, registered in udfs.ts). ClickHouse has its own erf/erfc (the C library's).
 * Pure: no DuckDB import here.
 */

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/**
 * erf for |x| < 2 by the series 2/√π·e^(-x²)·Σ 2ⁿx^(2n+1)/(1·3·…·(2n+1)), whose terms are all
 * positive (the usual alternating series loses digits to cancellation).
 */
function erfSeries(x: number): number {
  let term = x;
  let sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > Math.abs(sum) * 1e-17; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
}

/** erfc for x >= 2 by its continued fraction e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), evaluated from the tail. */
function erfcFraction(x: number): number {
  let t = x;
  for (let k = 200; k >= 1; k--) t = x + k / 2 / t;
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * t);
}

export function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  if (Math.abs(x) < 2) return erfSeries(x);
  return x > 0 ? 1 - erfcFraction(x) : erfcFraction(-x) - 1;
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x >= 2) return erfcFraction(x);
  if (x <= -2) return 2 - erfcFraction(-x);
  return 1 - erfSeries(x);
}
