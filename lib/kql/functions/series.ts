/** KQL's series functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";

/** ClickHouse: filters.ts seriesIir's recurrence, folded over the positions (a non-number reads as 0). */
function chSeriesIir(series: string, numerators: string, denominators: string): string {
  const read = (json: string) => `JSONExtract(ifNull(${json}, ''), 'Array(Float64)')`;
  const arrays = (json: string) => `JSONType(ifNull(${json}, '')) = 'Array'`;
  const term = "arraySum(arrayMap(kql_k -> if(kql_n - kql_k >= 1, kql_b[kql_k + 1] * kql_x[kql_n - kql_k], 0), range(length(kql_b))))";
  const feedback = "arraySum(arrayMap(kql_k -> if(kql_n - kql_k >= 1, kql_a[kql_k + 1] * kql_y[kql_n - kql_k], 0), range(1, length(kql_a))))";
  const fold = `arrayFold((kql_y, kql_n) -> arrayPushBack(kql_y, (${term} - ${feedback}) / kql_a[1]), range(1, length(kql_x) + 1), CAST([], 'Array(Float64)'))`;
  const text = `concat('[', arrayStringConcat(arrayMap(kql_v -> if(isFinite(kql_v), toString(kql_v), 'null'), ${fold}), ','), ']')`;
  const body = `arrayMap((kql_x, kql_b, kql_a) -> if(length(kql_a) = 0 OR kql_a[1] = 0, NULL, ${text}), [${read(series)}], [${read(numerators)}], [${read(denominators)}])[1]`;
  return `if(${arrays(series)} AND ${arrays(numerators)} AND ${arrays(denominators)}, ${body}, NULL)`;
}

export const SERIES: readonly FunctionEntry[] = [
  scalar("series_iir", {
    args: "series: dynamic, numerators: dynamic, denominators: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: "CAST(kql_series_iir(CAST($0 AS VARCHAR), CAST($1 AS VARCHAR), CAST($2 AS VARCHAR)) AS JSON)",
      clickhouse: ({ args: [series, numerators, denominators] }) => chSeriesIir(series!, numerators!, denominators!),
    },
    doc: "the series through an infinite impulse response filter: y[n] = (Σ b[k]·x[n−k] − Σ a[k]·y[n−k]) / a[0]; null when a[0] is 0",
  }),
  documented("scalar", "series_stats", "series_stats(Series): columns _min, _min_idx, _max, _max_idx, _avg, _stdev, _variance — statistics of a series"),
  documented("scalar", "series_stats_dynamic", "series_stats_dynamic(Series): dynamic bag of statistics — statistics of a series as one bag"),
  documented("scalar", "series_fir", "series_fir(Series, Filter [, Normalize, Center]): dynamic — e.g. moving average series_fir(x, repeat(1, 5), true, true)"),
  documented("scalar", "series_fill_forward", "series_fill_forward(Series): dynamic — nulls take the previous value"),
  documented("scalar", "series_fill_backward", "series_fill_backward(Series): dynamic — nulls take the next value"),
  documented("scalar", "series_fill_linear", "series_fill_linear(Series): dynamic — nulls interpolated"),
  documented("scalar", "series_fill_const", "series_fill_const(Series, Value): dynamic — nulls replaced by a constant"),
  documented("scalar", "series_decompose", "series_decompose(Series [, Seasonality=-1, Trend='avg', Test_points=0, Seasonality_threshold=0.6]): columns baseline, seasonal, trend, residual — a series split into seasonal, trend and residual parts"),
  documented("scalar", "series_decompose_anomalies", "series_decompose_anomalies(Series [, Threshold=1.5, Seasonality=-1, Trend='avg', Test_points=0, AD_method='ctukey', Seasonality_threshold=0.6]): columns ad_flag (+1/-1/0), ad_score, baseline — e.g. extend (flag, score, baseline) = series_decompose_anomalies(y)"),
  documented("scalar", "series_decompose_forecast", "series_decompose_forecast(Series, Points [, Seasonality=-1, Trend='linefit', Seasonality_threshold=0.6]): the baseline with the last Points forecast (then seasonal, trend, residual) — a series' forecast of the last Points points from its seasonality and trend"),
  documented("scalar", "series_outliers", "series_outliers(Series [, Kind='ctukey', Ignore_val, Min_percentile=10, Max_percentile=90]): dynamic — Tukey fence scores (> 1.5 a rise, < -1.5 a drop)"),
  documented("scalar", "series_fit_line", "series_fit_line(Series): columns rsquare, slope, variance, rvariance, interception, line_fit — the least-squares line through a series"),
  documented("scalar", "series_fit_2lines", "series_fit_2lines(Series): columns rsquare, split_idx, variance, rvariance, line_fit, then right_ and left_ rsquare, slope, interception, variance, rvariance — the best split of a series into two lines, e.g. extend (rs, si) = series_fit_2lines(y)"),
  documented("scalar", "series_fit_2lines_dynamic", "series_fit_2lines_dynamic(Series): dynamic — series_fit_2lines' results as one bag (rsquare, split_idx, variance, rvariance, line_fit, right {…}, left {…})"),
  documented("scalar", "series_periods_detect", "series_periods_detect(Series, Min_period, Max_period, Num_periods): columns periods, scores — by autocorrelation"),
];
