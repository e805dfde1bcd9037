/**
 * The monitor editor's starting points. Each is only a query and a task template: threshold,
 * anomaly (`series_decompose_anomalies`), silence and rate-of-change monitors are all just KQL
 * (docs/api.md, "Monitors"). They read the window the monitor is given (no `ago()` where the window
 * says enough), so the preview replays them faithfully; "no data" needs the clock and uses `ago(30m)`.
 */
interface MonitorTemplate {
  id: "threshold" | "anomaly" | "no-data" | "rate";
  label: string;
  description: string;
  name: string;
  query: string;
  keyColumns: string[];
  every: string;
  lookback: string;
  taskTitle: string;
  taskDescription: string;
}

export const MONITOR_TEMPLATES: readonly MonitorTemplate[] = [
  {
    id: "threshold",
    label: "Threshold",
    description: "A reading above a limit within the window.",
    name: "Temperature above 80 °C",
    query: `States
| where Name == "Temperature"
| summarize MaxValue = round(max(todouble(Value)), 2) by DeviceId
| where MaxValue > 80`,
    keyColumns: ["DeviceId"],
    every: "5m",
    lookback: "15m",
    taskTitle: "{DeviceId}: temperature {MaxValue} °C above 80 °C",
    taskDescription: "The highest temperature of the last 15 minutes was {MaxValue} °C. Check cooling and bearings.",
  },
  {
    id: "anomaly",
    label: "Anomaly",
    description: "The latest 10-minute bin flagged by series_decompose_anomalies (a 6-hour series, ADX's default threshold 1.5).",
    name: "Vibration anomaly",
    query: `States
| where Name == "Vibration"
| make-series Reading = avg(todouble(Value)) default = 0 on Timestamp step 10m by DeviceId
| extend Flags = series_decompose_anomalies(Reading, 1.5)
| mv-expand Timestamp to typeof(datetime), Reading to typeof(double), Flags to typeof(double)
| summarize arg_max(Timestamp, Reading, Flags) by DeviceId
| where Flags != 0
| project DeviceId, At = Timestamp, Reading = round(Reading, 2), Direction = iff(Flags > 0, "high", "low")`,
    keyColumns: ["DeviceId"],
    every: "10m",
    lookback: "6h",
    taskTitle: "{DeviceId}: vibration unusually {Direction} ({Reading} mm/s)",
    taskDescription: "The 10-minute average vibration from {At} is an anomaly against the last 6 hours (seasonal decomposition). Check balance, alignment and bearings.",
  },
  {
    id: "no-data",
    label: "No data for 30 minutes",
    description: "A device that reported in the window but not in the last 30 minutes.",
    name: "Device silent for 30 minutes",
    query: `States
| summarize LastSeen = max(Timestamp) by DeviceId
| where LastSeen < ago(30m)`,
    keyColumns: ["DeviceId"],
    every: "5m",
    lookback: "6h",
    taskTitle: "{DeviceId}: no telemetry since {LastSeen}",
    taskDescription: "The device has sent nothing for at least 30 minutes. Check its power, network and gateway.",
  },
  {
    id: "rate",
    label: "Rate of change",
    description: "A value rising or falling faster than a rate per hour.",
    name: "Temperature changing fast",
    query: `States
| where Name == "Temperature"
| extend v = todouble(Value)
| summarize arg_min(Timestamp, v), arg_max(Timestamp, v) by DeviceId
| extend Hours = (Timestamp1 - Timestamp) / 1h
| where Hours > 0
| extend PerHour = round((v1 - v) / Hours, 2)
| where abs(PerHour) > 5
| project DeviceId, PerHour, From = round(v, 2), To = round(v1, 2)`,
    keyColumns: ["DeviceId"],
    every: "5m",
    lookback: "1h",
    taskTitle: "{DeviceId}: temperature changing {PerHour} °C/h",
    taskDescription: "Temperature went from {From} to {To} °C within the last hour.",
  },
];
