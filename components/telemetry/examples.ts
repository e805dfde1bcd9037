/** Example queries for newcomers: each shows one idea of the language on the demo data's tables. */
export interface ExampleQuery {
  title: string;
  query: string;
}

export const DEFAULT_QUERY = `States
| summarize avg(Value) by bin(Timestamp, 1h), Name
| order by Timestamp asc`;

export function exampleQueries(firstName?: string): ExampleQuery[] {
  const name = firstName ?? "Temperature";
  return [
    { title: "Hourly average of every data point", query: DEFAULT_QUERY },
    {
      title: `One data point, every sample`,
      query: `States\n| where Name == "${name}"\n| project Timestamp, Name, Value, DeviceId\n| order by Timestamp asc`,
    },
    {
      title: "Samples per device and data point",
      query: `States\n| summarize Samples = count(), Last = max(Timestamp) by DeviceId, Name\n| order by DeviceId asc`,
    },
    {
      title: "Active alarms",
      query: `Events\n| where isnull(EndTime)\n| project StartTime, Severity, Name, Message, DeviceId\n| order by StartTime desc`,
    },
    {
      title: "Alarms by severity",
      query: `Events\n| summarize Alarms = count() by Severity\n| order by Alarms desc`,
    },
    {
      title: "Readings of one machine (by asset tag)",
      query: `States\n| where MessageMetadata.topologyReference == "<asset tag>"\n| take 100`,
    },
  ];
}
