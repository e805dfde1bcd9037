/**
 * Conformance: array_sort_asc / array_sort_desc (one array) and parse_path (functions/collections.ts)
 * on both engines — the pages' printed outputs, then mixed types, nulls, non-arrays and path edges.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const bag = (scheme: string, root: string, dir: string, dirName: string, file: string, ext: string, stream: string) => ({
  Scheme: scheme,
  RootPath: root,
  DirectoryPath: dir,
  DirectoryName: dirName,
  Filename: file,
  Extension: ext,
  AlternateDataStreamName: stream,
});

describe("array_sort_* and parse_path", () => {
  conformance([
    // The pages' printed outputs.
    { q: "print result = strcat_array(array_sort_asc(split('John,Paul,Jane,Kao', ',')), ',')", rows: [["Jane,John,Kao,Paul"]] },
    { q: "print a = array_sort_asc(dynamic([null, 'blue', 'yellow', 'green', null])), b = array_sort_asc(dynamic([null, 'blue', 'yellow', 'green', null]), false)", rows: [[["blue", "green", "yellow", null, null], [null, null, "blue", "green", "yellow"]]] },
    { q: "print a = array_sort_desc(dynamic([null, 'blue', 'yellow', 'green', null])), b = array_sort_desc(dynamic([null, 'blue', 'yellow', 'green', null]), false)", rows: [[["yellow", "green", "blue", null, null], [null, null, "yellow", "green", "blue"]]] },
    {
      q: "datatable(p:string) [@'C:\\temp\\file.txt', 'file://C:/temp/file.txt:some.exe', @'\\\\shared\\users\\temp\\file.txt.gz', '/usr/lib/temp/file.txt'] | extend parts = parse_path(p)",
      rows: [
        ["C:\\temp\\file.txt", bag("", "C:", "C:\\temp", "temp", "file.txt", "txt", "")],
        ["file://C:/temp/file.txt:some.exe", bag("file", "C:", "C:/temp", "temp", "file.txt", "txt", "some.exe")],
        ["\\\\shared\\users\\temp\\file.txt.gz", bag("", "", "\\\\shared\\users\\temp", "temp", "file.txt.gz", "gz", "")],
        ["/usr/lib/temp/file.txt", bag("", "", "/usr/lib/temp", "temp", "file.txt", "txt", "")],
      ],
    },
    // Edges.
    { q: "print array_sort_asc(dynamic([10, 9, 1.5, -2])), array_sort_asc(dynamic(['b', 2, true, 'a', 1])), array_sort_desc(dynamic([1, 'a', 2])), array_sort_asc(dynamic([])), array_sort_asc(parse_json('{\"a\": 1}')), array_sort_asc(dynamic(['B', 'a', 'A']))", rows: [[[-2, 1.5, 9, 10], [1, 2, "a", "b", true], ["a", 2, 1], [], null, ["A", "B", "a"]]] },
    { q: "print parse_path(''), parse_path('file.txt'), parse_path('/a/b/'), parse_path('dir/noext')", rows: [[bag("", "", "", "", "", "", ""), bag("", "", "", "", "file.txt", "txt", ""), bag("", "", "/a/b", "b", "", "", ""), bag("", "", "dir", "dir", "noext", "", "")]] },
  ]);
});
