/** Example queries for newcomers: each shows one idea of the language on the demo data's tables. */
interface ExampleQuery {
  title: string;
  query: string;
}

export const DEFAULT_QUERY = `States
| where Name == "Temperature"
| summarize avg(Value) by bin(Timestamp, 1h), DeviceId`;

/** `device`: a device of the chosen plants, when known, so the examples return rows at once. */
export function exampleQueries(device?: string): ExampleQuery[] {
  const deviceId = JSON.stringify(device ?? "<device id>");
  return [
    { title: "Hourly average temperature per device", query: DEFAULT_QUERY },
    {
      title: "Every sample of one device",
      query: `States\n| where DeviceId == ${deviceId}\n| project Timestamp, Name, Value\n| order by Timestamp asc`,
    },
    {
      title: "Data points and sample counts per device",
      query: `States\n| summarize Samples = count(), Last = max(Timestamp) by DeviceId, Name\n| order by DeviceId asc`,
    },
    {
      title: "Peak vibration per machine (by asset tag)",
      query: `States\n| where Name == "Vibration"\n| summarize Peak = max(Value) by Asset = tostring(MessageMetadata.topologyReference)\n| top 10 by Peak`,
    },
    {
      title: "Active alarms",
      query: `Events\n| where isnull(EndTime)\n| project StartTime, Severity, Name, Message, DeviceId\n| order by StartTime desc`,
    },
    {
      title: "Alarms by severity",
      query: `Events\n| summarize Alarms = count() by Severity\n| order by Alarms desc`,
    },
  ];
}
