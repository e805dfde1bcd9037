/**
 * Conformance: series analysis (series_decompose*, series_outliers, series_fit_line,
 * series_periods_detect). Constructed series whose answers follow from the algorithms in
 * docs/kql-series.md exactly, and Microsoft's documented series_fit_line example.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

/** n points, all 0 but `at` = value. */
const onlyAt = (n: number, at: number, value: number) => Array.from({ length: n }, (_, i) => (i === at ? value : 0));

// The constructed series: a square wave of period 6 (10, 10, 10, 4, 4, 4, …) over 72 points, one
// spike of +30 at point 40, with or without a line of slope 0.5.
describe("series analysis", () => {
  conformance([
    // A seasonal signal with one spike is flagged at the spike alone: period detected, or given.
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) + iff(t == 40, 30.0, 0.0) | summarize y = make_list(y) | extend (flag, score, baseline) = series_decompose_anomalies(y) | project flag", rows: [[onlyAt(72, 40, 1)]], columns: ["flag"], types: ["dynamic"] },
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) + iff(t == 40, 30.0, 0.0) | summarize y = make_list(y) | extend (flag, score, baseline) = series_decompose_anomalies(y, 1.5, 6) | project flag, score", rows: [[onlyAt(72, 40, 1), onlyAt(72, 40, 72)]] },
    // … with a linear trend too (linefit; the seasonal medians absorb part of the line, the residual stays within the fences).
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) + 0.5 * t + iff(t == 40, 30.0, 0.0) | summarize y = make_list(y) | extend (flag, score, baseline) = series_decompose_anomalies(y, 1.5, -1, \"linefit\") | project flag", rows: [[onlyAt(72, 40, 1)]] },
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) + 0.5 * t + iff(t == 40, 30.0, 0.0) | summarize y = make_list(y) | extend (flag, score, baseline) = series_decompose_anomalies(y, 1.5, 6, \"linefit\", 0, \"tukey\") | project flag", rows: [[onlyAt(72, 40, 1)]] },
    // A dip is flagged -1.
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) - iff(t == 13, 30.0, 0.0) | summarize y = make_list(y) | extend (flag, score, baseline) = series_decompose_anomalies(y) | project flag", rows: [[onlyAt(72, 13, -1)]] },
    // Default column names, as ADX names them.
    {
      q: "print y = dynamic([1, 2, 3, 4, 5, 6]) | extend series_decompose_anomalies(y, 1.5, 0) | project-away y",
      rows: [[[0, 0, 0, 0, 0, 0], [-0.125, 0, 0, 0, 0, 0.125], [3.5, 3.5, 3.5, 3.5, 3.5, 3.5]]],
      columns: ["series_decompose_anomalies_y_ad_flag", "series_decompose_anomalies_y_ad_score", "series_decompose_anomalies_y_baseline"],
      types: ["dynamic", "dynamic", "dynamic"],
    },
    // series_decompose: seasonal = median of each phase, trend of the rest, residual = x − baseline.
    {
      q: "print y = dynamic([1, 2, 3, 4, 5, 6]) | extend series_decompose(y, 2) | project-away y",
      rows: [[[3, 4, 3, 4, 3, 4], [3, 4, 3, 4, 3, 4], [0, 0, 0, 0, 0, 0], [-2, -2, 0, 0, 2, 2]]],
      columns: ["series_decompose_y_baseline", "series_decompose_y_seasonal", "series_decompose_y_trend", "series_decompose_y_residual"],
    },
    { q: "print y = dynamic([1, 2, 3, 4, 5, 6]) | extend (b, s, t, r) = series_decompose(y, 0, \"linefit\") | project t, r", rows: [[[1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 0]]] },
    { q: "print y = dynamic([2, 2, 5, 2, 2, 2]) | extend (b, s, t, r) = series_decompose(y, 0, \"none\") | project b, r", rows: [[[0, 0, 0, 0, 0, 0], [2, 2, 5, 2, 2, 2]]] },
    // Forecast: the test points are left out of the fit and extrapolated.
    { q: "print y = dynamic([1, 2, 3, 4, 5, 6, 0, 0]) | extend f = series_decompose_forecast(y, 2) | project-away y", rows: [[[1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 0, 0, 0, 0], [1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 0, 0, -7, -8]]], columns: ["f", "series_decompose_forecast_y_seasonal", "series_decompose_forecast_y_trend", "series_decompose_forecast_y_residual"] },
    { q: "print y = dynamic([10, 4, 10, 4, 10, 4, 0, 0]) | extend f = series_decompose_forecast(y, 2, 2, \"avg\") | project f", rows: [[[10, 4, 10, 4, 10, 4, 10, 4]]] },
    // A straight line's fit has rsquare 1; Microsoft's documented example.
    { q: "print y = dynamic([1, 3, 5, 7, 9]) | extend (rsquare, slope, variance, rvariance, interception, line) = series_fit_line(y) | project-away y", rows: [[1, 2, 10, 0, -1, [1, 3, 5, 7, 9]]], types: ["real", "real", "real", "real", "real", "dynamic"] },
    {
      q: "print y = dynamic([2, 5, 6, 8, 11, 15, 17, 18, 25, 26, 30, 30]) | extend (RSquare, Slope, Variance, RVariance, Interception, LineFit) = series_fit_line(y) | project RSquare, Slope, Variance, RVariance, Interception",
      rows: [[0.982900730884447, 2.7307692307692313, 98.62878787878786, 1.6864801864801868, -1.6666666666666714]],
    },
    { q: "print y = dynamic([4, 4]) | extend series_fit_line(y) | project series_fit_line_y_rsquare, series_fit_line_y_slope", rows: [[1, 0]], columns: ["series_fit_line_y_rsquare", "series_fit_line_y_slope"] },
    // series_outliers: Tukey's fences on the 10th/90th percentiles (ctukey) or quartiles (tukey); nulls score 0.
    { q: "print y = dynamic([1, 2, 3, 100, 2, 1, null, 3]) | extend o = series_outliers(y) | project o", rows: [[[0, 0, 0, 1.4264705882352922, 0, 0, 0, 0]]] },
    { q: "print y = dynamic([1, 2, 3, 100, 2, 1, null, 3]) | project o = series_outliers(y, \"tukey\")", rows: [[[-1 / 3, 0, 0, 64.66666666666667, 0, -1 / 3, 0, 0]]] },
    { q: "print y = dynamic([5, 5, 5]) | project o = series_outliers(y)", rows: [[[0, 0, 0]]] },
    // series_periods_detect: the square wave's period and its multiple, by score.
    { q: "range t from 0 to 71 step 1 | extend y = iff(t % 6 < 3, 10.0, 4.0) + 0.5 * t | summarize y = make_list(y) | extend (periods, scores) = series_periods_detect(y, 0, 40, 2) | project periods", rows: [[[6, 12]]] },
    // Not an array: null results.
    { q: "print y = dynamic(null) | extend (a, b, c) = series_decompose_anomalies(y) | project a, b, c", rows: [[null, null, null]] },
    // Per series of a make-series, staged under other columns.
    {
      q: "States | where DeviceId in (\"D1\", \"D2\") | make-series n = count() default = 0 on Timestamp from datetime(2026-01-01) to datetime(2026-01-01 04:00) step 1h by DeviceId | extend (rsquare, slope) = series_fit_line(n) | project DeviceId, slope | order by DeviceId asc",
      rows: [["D1", -0.9], ["D2", -0.3]],
    },
    // series_fit_2lines: Microsoft's example series (its docs chart it; the numbers are the least-squares
    // split computed by brute force over every split), a V whose vertex starts the right line, a line.
    {
      q: "print y = dynamic([1, 2.2, 2.5, 4.7, 5.0, 12, 10.3, 10.3, 9, 8.3, 6.2]) | extend (rs, si, v, rv, fit, r_rsquare, r_slope, r_interception, r_variance, r_rvariance, l_rsquare, l_slope, l_interception, l_variance, l_rvariance) = series_fit_2lines(y) | project-away y",
      rows: [[0.9865131917168768, 5, 13.894, 0.1873857142857144, [0.98, 2.03, 3.08, 4.13, 5.18, 11.942857142857143, 10.905714285714286, 9.868571428571428, 8.831428571428571, 7.7942857142857145, 6.757142857142858], 0.9423851242624709, -1.0371428571428571, 12.98, 3.995, 0.23017142857142875, 0.9384576098059244, 1.05, -0.07, 2.937, 0.18075]],
      columns: ["rs","si","v","rv","fit","r_rsquare","r_slope","r_interception","r_variance","r_rvariance","l_rsquare","l_slope","l_interception","l_variance","l_rvariance"],
      types: ["real", "long", "real", "real", "dynamic", "real", "real", "real", "real", "real", "real", "real", "real", "real", "real"],
    },
    { q: "print y = dynamic([5, 4, 3, 2, 1, 2, 3, 4, 5]) | extend (rs, si, v, rv, fit, r_rsquare, r_slope, r_interception, r_variance, r_rvariance, l_rsquare, l_slope, l_interception, l_variance, l_rvariance) = series_fit_2lines(y) | project-away y", rows: [[1, 4, 1.9444444444444446, 0, [5, 4, 3, 2, 1, 2, 3, 4, 5], 1, 1, 0, 2.5, 0, 1, -1, 6, 1.6666666666666667, 0]] },
    { q: "print y = dynamic([1, 3, 5, 7, 9]) | extend (rsquare, split) = series_fit_2lines(y) | project rsquare, split", rows: [[1, 2]], columns: ["rsquare", "split"], types: ["real", "long"] },
    // Fewer than 4 points (each line needs two) or not an array: no fit.
    { q: "print y = dynamic([1, 2, 3]) | extend (rs, si, v, rv, fit) = series_fit_2lines(y) | project rs, si, v, rv, fit", rows: [[null, null, null, null, null]] },
    { q: "print y = parse_json(\"{\\\"a\\\": 1}\") | extend (rs, si) = series_fit_2lines(y) | project rs, si", rows: [[null, null]] },
    // Default names (ADX: series_fit_2lines_<x>_<part>), and per series of a make-series.
    {
      q: "print y = dynamic([0, 0, 0, 0, 1, 2, 3]) | extend series_fit_2lines(y) | project series_fit_2lines_y_split_idx, series_fit_2lines_y_left_slope, series_fit_2lines_y_right_slope, series_fit_2lines_y_rvariance",
      rows: [[3, 0, 1, 0]],
    },
    // (a, b) = … in project (ADX): the names given first, the other results under their default names.
    {
      q: "print y = dynamic([1, 2, 3, 4, 5]) | project (a, b) = series_fit_line(y)",
      rows: [[1, 1, 2.5, 0, 0, [1, 2, 3, 4, 5]]],
      columns: ["a", "b", "series_fit_line_y_variance", "series_fit_line_y_rvariance", "series_fit_line_y_interception", "series_fit_line_y_line_fit"],
      types: ["real", "real", "real", "real", "real", "dynamic"],
    },
    {
      q: "print y = dynamic([1, 2, 3, 4, 5]) | project y, (lo, at) = series_stats(y)",
      rows: [[[1, 2, 3, 4, 5], 1, 0, 5, 4, 3, 1.5811388300841898, 2.5]],
      columns: ["y", "lo", "at", "series_stats_y_max", "series_stats_y_max_idx", "series_stats_y_avg", "series_stats_y_stdev", "series_stats_y_variance"],
    },
    { q: "print y = dynamic([5, 4, 3, 2, 1, 2, 3, 4, 5]), z = 1 | project z, (rs, si) = series_fit_2lines(y) | project z, rs, si", rows: [[1, 1, 4]], columns: ["z", "rs", "si"] },
    { q: "range t from 1 to 6 step 1 | summarize y = make_list(t * 2.0) | project series_fit_line(y) | project series_fit_line_y_slope", rows: [[2]] },
    // series_fit_2lines_dynamic: the same results as one bag (Microsoft's example reads its line_fit).
    {
      q: "print y = dynamic([5, 4, 3, 2, 1, 2, 3, 4, 5]) | extend d = series_fit_2lines_dynamic(y) | project d",
      rows: [[{ rsquare: 1, split_idx: 4, variance: 1.9444444444444446, rvariance: 0, line_fit: [5, 4, 3, 2, 1, 2, 3, 4, 5], right: { rsquare: 1, slope: 1, interception: 0, variance: 2.5, rvariance: 0 }, left: { rsquare: 1, slope: -1, interception: 6, variance: 1.6666666666666667, rvariance: 0 } }]],
      columns: ["d"],
      types: ["dynamic"],
    },
    {
      q: "print y = dynamic([1, 2.2, 2.5, 4.7, 5.0, 12, 10.3, 10.3, 9, 8.3, 6.2]) | extend d = series_fit_2lines_dynamic(y) | project LineFit2 = d.line_fit, s = d.split_idx",
      rows: [[[0.98, 2.03, 3.08, 4.13, 5.18, 11.942857142857143, 10.905714285714286, 9.868571428571428, 8.831428571428571, 7.7942857142857145, 6.757142857142858], 5]],
    },
    { q: "print y = dynamic([1, 2]) | project d = series_fit_2lines_dynamic(y)", rows: [[null]] },
  ]);
});
