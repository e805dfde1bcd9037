/**
 * What a column is called on screen. Kusto names an aggregate nobody named after the function and
 * its column (`count_`, `avg_Value`, `dcount_DeviceId`, `percentile_Value_95`): fine in a query,
 * internal on a chart or a big number. These read as words ("Count", "Average Value", "Distinct
 * DeviceId", "95th percentile of Value"); any other name is the author's and is shown as written.
 * Pure: the rows keep their names, only the titles change.
 */
const AGGREGATE_WORDS: Record<string, string> = {
  count: "Count",
  countif: "Count",
  dcount: "Distinct",
  dcountif: "Distinct",
  avg: "Average",
  avgif: "Average",
  sum: "Sum of",
  sumif: "Sum of",
  min: "Min",
  max: "Max",
  stdev: "Std dev of",
  variance: "Variance of",
  any: "Any",
  take_any: "Any",
  make_list: "List of",
  make_set: "Set of",
};

function ordinal(n: string): string {
  const last = n.endsWith("1") && !n.endsWith("11") ? "st" : n.endsWith("2") && !n.endsWith("12") ? "nd" : n.endsWith("3") && !n.endsWith("13") ? "rd" : "th";
  return `${n}${last}`;
}

export function columnTitle(name: string): string {
  const percentile = /^percentiles?_(.+?)_(\d+(?:_\d+)?)$/.exec(name);
  if (percentile) return `${ordinal(percentile[2]!.replace("_", "."))} percentile of ${percentile[1]}`;
  const match = /^(make_list|make_set|take_any|[a-z]+)_(.*)$/.exec(name);
  const word = match ? AGGREGATE_WORDS[match[1]!] : undefined;
  if (!match || word === undefined) return name;
  return match[2] ? `${word} ${match[2]}` : word.replace(/ of$/, "");
}
