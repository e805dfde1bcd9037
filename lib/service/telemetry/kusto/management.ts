/**
 * The management commands a Kusto client sends to look around (docs/api.md §7): `.show version`,
 * `.show databases`, `.show tables`, `.show table T schema as json`, `.show database X schema as
 * json`, `.show databases schema as json`, `.show functions` — with ADX's columns in ADX's order.
 *
 * A command becomes a KQL `datatable` of its answer, followed by whatever the client piped after it
 * (`.show databases | project DatabaseName`), and runs on the telemetry engine like any query: the
 * same compiler, limits, budget and isolation, and one general mechanism for every pipe. The
 * answer only ever names the caller's own database. Anything else is ADX's "not supported" error.
 */
import { createHash } from "node:crypto";
import { ApiError } from "../../../contract/errors";
import { TABLES, TABLE_NAMES, type KqlType } from "@/lib/kql";
import type { ReportedColumn } from "./protocol";
import { notSupported } from "./protocol";

/** Column types of the answers; `guid` is ADX's, reported as such but carried as a KQL string. */
type CommandType = KqlType | "guid";

interface CommandTable {
  columns: [name: string, type: CommandType][];
  rows: (string | number | boolean)[][];
}

/** What a command runs as: KQL text, and the ADX type of each column it declares. */
export interface CommandQuery {
  kql: string;
  /** Where the client's own text starts in `kql` (to put a KQL error back where the client typed it). */
  offsetShift: number;
  /** Columns of the answer whose ADX type KQL cannot name (`guid`). */
  reportedTypes: Map<string, { columnType: string; dataType: string }>;
}

const PRODUCT_VERSION = "Plantdesk 1.0";
const BUILD_TIME = "2026-11-25T00:00:00.000Z";

/** .NET type names of ADX's JSON schemas. */
const CLR_TYPES: Record<KqlType, string> = {
  string: "System.String",
  long: "System.Int64",
  int: "System.Int32",
  real: "System.Double",
  bool: "System.SByte",
  datetime: "System.DateTime",
  timespan: "System.TimeSpan",
  dynamic: "System.Object",
};

/** A stable id for a customer's database (ADX's DatabaseId is a guid). */
function databaseId(customerId: string): string {
  const hex = createHash("sha256").update(`plantdesk-database:${customerId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function tableSchema(table: (typeof TABLE_NAMES)[number]) {
  return {
    Name: table,
    OrderedColumns: TABLES[table].columns.map((column) => ({ Name: column.name, Type: CLR_TYPES[column.kqlType], CslType: column.kqlType })),
  };
}

function databaseSchema(customerId: string) {
  return {
    Name: customerId,
    Tables: Object.fromEntries(TABLE_NAMES.map((table) => [table, { ...tableSchema(table), EntityType: "Table", Folder: null, DocString: null }])),
    ExternalTables: {},
    MaterializedViews: {},
    Functions: {},
    EntityGroups: {},
    MajorVersion: 1,
    MinorVersion: 0,
    DatabaseAccessMode: "ReadOnly",
  };
}

const DATABASES: CommandTable["columns"] = [
  ["DatabaseName", "string"],
  ["PersistentStorage", "string"],
  ["Version", "string"],
  ["IsCurrent", "bool"],
  ["DatabaseAccessMode", "string"],
  ["PrettyName", "string"],
  ["DatabaseId", "guid"],
  ["InTransitionTo", "string"],
  ["SuspensionState", "string"],
];

/** Who asks, and in which database the request was sent. */
interface CommandContext {
  customerId: string;
  /** The request's `db`, already checked to be the customer's own. */
  database: string;
}

const refused = (database: string) => new ApiError("FORBIDDEN", `Principal is not authorized to access database '${database}'.`);

/** The answer table of one command (without its pipe); throws for a command not supported. */
function commandTable(command: string, context: CommandContext): CommandTable {
  const words = command.trim().replace(/\s+/g, " ");
  const own = context.customerId;
  let m: RegExpExecArray | null;
  if (/^\.show version$/i.test(words)) {
    return {
      columns: [["BuildVersion", "string"], ["BuildTime", "datetime"], ["ServiceType", "string"], ["ProductVersion", "string"], ["ServiceOffering", "string"]],
      rows: [["1.0.0.0", BUILD_TIME, "Engine", PRODUCT_VERSION, "Plantdesk"]],
    };
  }
  if (/^\.show (cluster )?databases$/i.test(words)) {
    return { columns: DATABASES, rows: [[own, "", "v1.0", true, "ReadOnly", own, databaseId(own), "", ""]] };
  }
  if (/^\.show tables$/i.test(words)) {
    return {
      columns: [["TableName", "string"], ["DatabaseName", "string"], ["Folder", "string"], ["DocString", "string"]],
      rows: TABLE_NAMES.map((table) => [table, own, "", ""]),
    };
  }
  if ((m = /^\.show table (\S+) schema as json$/i.exec(words))) {
    const name = unquote(m[1]!);
    const table = TABLE_NAMES.find((candidate) => candidate === name);
    if (!table) throw new ApiError("NOT_FOUND", `Table '${name.slice(0, 100)}' was not found in database '${own}'.`);
    return {
      columns: [["TableName", "string"], ["Schema", "string"], ["DatabaseName", "string"], ["Folder", "string"], ["DocString", "string"]],
      rows: [[table, JSON.stringify(tableSchema(table)), own, "", ""]],
    };
  }
  if ((m = /^\.show database (\S+) schema as json$/i.exec(words))) {
    const name = unquote(m[1]!);
    if (name.toLowerCase() !== own.toLowerCase()) throw refused(name.slice(0, 100));
    return { columns: [["DatabaseSchema", "string"]], rows: [[JSON.stringify({ Databases: { [own]: databaseSchema(own) } })]] };
  }
  if (/^\.show databases? schema$/i.test(words) || ((m = /^\.show database (\S+) schema$/i.exec(words)) && unquote(m[1]!).toLowerCase() === own.toLowerCase())) {
    // ADX's flat form: a row for the database, one per table, one per column (Grafana's ADX data source tests its connection with it).
    const rows: (string | boolean)[][] = [[own, "", "", "", false, false, own, "v1.0", "", ""]];
    for (const table of TABLE_NAMES) {
      rows.push([own, table, "", "", false, false, "", "", "", ""]);
      for (const column of tableSchema(table).OrderedColumns) rows.push([own, table, column.Name, column.Type, false, false, "", "", "", ""]);
    }
    return {
      columns: [["DatabaseName", "string"], ["TableName", "string"], ["ColumnName", "string"], ["ColumnType", "string"], ["IsDefaultTable", "bool"], ["IsDefaultColumn", "bool"], ["PrettyName", "string"], ["Version", "string"], ["Folder", "string"], ["DocString", "string"]],
      rows,
    };
  }
  if ((m = /^\.show database (\S+) schema$/i.exec(words))) throw refused(unquote(m[1]!).slice(0, 100));
  if (/^\.show databases schema as json$/i.test(words)) {
    return { columns: [["DatabaseSchema", "string"]], rows: [[JSON.stringify({ Databases: { [own]: databaseSchema(own) } })]] };
  }
  if (/^\.show functions$/i.test(words)) {
    return { columns: [["Name", "string"], ["Parameters", "string"], ["Body", "string"], ["Folder", "string"], ["DocString", "string"]], rows: [] };
  }
  const shown = words.length > 80 ? `${words.slice(0, 80)}…` : words;
  throw notSupported(`The management command '${shown}'`);
}

/** `['name']`, `["name"]` or a plain name. */
function unquote(name: string): string {
  const m = /^\[(['"])(.*)\1\]$/.exec(name) ?? /^(['"])(.*)\1$/.exec(name);
  return m ? m[2]! : name;
}

function kqlString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}"`;
}

function kqlValue(value: string | number | boolean, type: CommandType): string {
  if (type === "datetime") return `datetime(${String(value)})`;
  if (type === "bool") return value ? "true" : "false";
  if (type === "long" || type === "int" || type === "real") return String(value);
  return kqlString(String(value));
}

/** Where the command ends and the client's pipe starts: the first `|` outside a quoted name. */
function pipeStart(csl: string): number {
  let quote: string | null = null;
  for (let i = 0; i < csl.length; i++) {
    const ch = csl[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "|") return i;
  }
  return csl.length;
}

/** The KQL a management command runs as (see the module comment). */
export function commandQuery(csl: string, context: CommandContext): CommandQuery {
  const split = pipeStart(csl);
  const table = commandTable(csl.slice(0, split), context);
  const schema = table.columns.map(([name, type]) => `${name}:${type === "guid" ? "string" : type}`).join(", ");
  const values = table.rows.flatMap((row) => row.map((value, i) => kqlValue(value, table.columns[i]![1])));
  // One line, so the client's pipe keeps its own lines and, on its first line, a fixed shift.
  const source = `datatable(${schema})[${values.join(", ")}]`;
  const reportedTypes = new Map(
    table.columns.filter(([, type]) => type === "guid").map(([name]) => [name, { columnType: "guid", dataType: "Guid" }] as const),
  );
  return { kql: source + csl.slice(split), offsetShift: source.length - split, reportedTypes };
}

/** The result columns as ADX reports them: a declared `guid` column that kept its name and string type. */
export function reportColumns(columns: readonly ReportedColumn[], reported: CommandQuery["reportedTypes"]): ReportedColumn[] {
  return columns.map((column) => {
    const declared = reported.get(column.name);
    return declared && column.columnType === "string" ? { ...column, ...declared } : column;
  });
}
