/**
 * The "Plant health" board every demo plant starts with (docs/api.md, "Dashboards"): what a shift
 * supervisor looks at first — the plant's temperature, one device's chosen data point, the alarms
 * open now, how many devices report, the machines vibrating most and the latest alarms. Written
 * against the demo data's data points; a variable for the device and one for the data point.
 */
import type { TDashboardDefinition } from "@/modules/boards/contract/boards";

export const PLANT_HEALTH_SEED = "plant-health";

export const PLANT_HEALTH: TDashboardDefinition = {
  title: "Plant health",
  description: "The plant at a glance: temperatures, one device's data point, open alarms and the machines vibrating most.",
  range: "24h",
  refresh: "1m",
  variables: [
    { name: "device", label: "Device", kind: "device", default: null },
    { name: "point", label: "Data point", kind: "dataPoint", default: "Temperature" },
  ],
  panels: [
    {
      id: "temperature",
      title: "Average temperature",
      query: 'States\n| where Name == "Temperature"\n| summarize Temperature = round(avg(todouble(Value)), 2) by bin(Timestamp, $__bin)',
      chart: "line",
      unit: "°C",
      width: "half",
    },
    {
      id: "device-point",
      title: "Chosen data point of the chosen device",
      query: "States\n| where DeviceId == $device and Name == $point\n| summarize Value = round(avg(todouble(Value)), 3) by bin(Timestamp, $__bin)",
      chart: "line",
      unit: "",
      width: "half",
    },
    {
      id: "devices",
      title: "Devices reporting",
      query: "States\n| summarize Devices = dcount(DeviceId)",
      chart: "stat",
      unit: "",
      width: "half",
    },
    {
      id: "open-alarms",
      title: "Open alarms by severity",
      query: "Events\n| where isnull(EndTime)\n| summarize Alarms = count() by Severity\n| order by Alarms desc",
      chart: "column",
      unit: "",
      width: "half",
    },
    {
      id: "vibration",
      title: "Peak vibration, top 10 devices",
      query: 'States\n| where Name == "Vibration"\n| summarize Peak = round(max(todouble(Value)), 2) by DeviceId\n| top 10 by Peak',
      chart: "bar",
      unit: "mm/s",
      width: "half",
    },
    {
      id: "latest-alarms",
      title: "Latest alarms",
      query: "Events\n| project StartTime, Severity, Name, DeviceId, Message\n| order by StartTime desc\n| take 20",
      chart: "table",
      unit: "",
      width: "full",
    },
  ],
};
