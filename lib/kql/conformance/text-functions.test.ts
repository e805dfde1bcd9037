/**
 * Conformance: text functions (functions/text-functions.ts) on both engines — the outputs
 * Microsoft's function pages print, then nulls, malformed input and the edges of each rule.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("text functions", () => {
  conformance([
    // The pages' printed outputs.
    {
      q: "print a = replace_strings('A magic trick can turn a cat into a dog', dynamic(['cat', 'dog']), dynamic(['dog', 'pigeon'])), b = replace_strings('A magic trick can turn a cat into a dog', dynamic(['turn', ' into a dog']), dynamic(['disappear', ''])), c = replace_strings('This is an example of using replace_strings()', dynamic(['This', 'is']), dynamic(['This', 'was'])), d = replace_strings('This is an example of using replace_strings()', dynamic(['is', 'This']), dynamic(['was', 'This'])), e = replace_strings('This is an example of using replace_strings()', dynamic(['This', 'is']), dynamic([12345, 'was']))",
      rows: [["A magic trick can turn a dog into a pigeon", "A magic trick can disappear a cat", "This was an example of using replace_strings()", "Thwas was an example of using replace_strings()", "This was an example of using replace_strings()"]],
    },
    { q: 'print a = unicode_codepoints_from_string("⒦⒰⒮⒯⒪"), b = unicode_codepoints_from_string("קוסטו - Kusto")', rows: [[[9382, 9392, 9390, 9391, 9386], [1511, 1493, 1505, 1496, 1493, 32, 45, 32, 75, 117, 115, 116, 111]]] },
    { q: "print a = unicode_codepoints_to_string(75, 117, 115, 116, 111), b = unicode_codepoints_to_string(dynamic([75, 117, 115]), 116, 111), c = unicode_codepoints_to_string(unicode_codepoints_from_string('Kusto'))", rows: [["Kusto", "Kusto", "Kusto"]] },
    {
      q: "print idx1 = has_any_index('this is an example', dynamic(['this', 'example'])), idx2 = has_any_index('this is an example', dynamic(['not', 'example'])), idx3 = has_any_index('this is an example', dynamic(['not', 'found'])), idx4 = has_any_index('Example number 2', range(1, 3, 1)), idx5 = has_any_index('this is an example', dynamic([]))",
      rows: [[0, 1, -1, 1, -1]],
    },
    { q: 'print v1 = format_bytes(564), v2 = format_bytes(10332, 1), v3 = format_bytes(20010332), v4 = format_bytes(20010332, 2), v5 = format_bytes(20010332, 0, "KB")', rows: [["564 Bytes", "10.1 KB", "19 MB", "19.08 MB", "19541 KB"]] },
    { q: "print url_encode('https://www.bing.com/hello world'), url_encode_component('https://www.bing.com/hello world/')", rows: [["https%3a%2f%2fwww.bing.com%2fhello+world", "https%3a%2f%2fwww.bing.com%2fhello%20world%2f"]] },
    // Edges, nulls and malformed input.
    { q: "print replace_strings('aaa', dynamic(['a']), dynamic(['bb'])), replace_strings('abc', dynamic(['']), dynamic(['x'])), replace_strings('abc', dynamic(['b']), dynamic([])), replace_strings('abc', parse_json('{\"a\": 1}'), dynamic(['x'])), replace_strings('a.b', dynamic(['.', 'a']), dynamic(['a', '.']))", rows: [["bbbbbb", "abc", "abc", "", ".ab"]] },
    { q: "print unicode_codepoints_from_string(''), unicode_codepoints_from_string('a\\nb'), unicode_codepoints_from_string('😀é')", rows: [[[], [97, 10, 98], [128512, 233]]] },
    { q: "print unicode_codepoints_to_string(128512, 233), unicode_codepoints_to_string(-1), unicode_codepoints_to_string(55296), unicode_codepoints_to_string(parse_json('[\"a\"]')), unicode_codepoints_to_string(1114112)", rows: [["😀é", "", "", "", ""]] },
    { q: "print has_any_index('Hello, World', dynamic(['world'])), has_any_index('helloworld', dynamic(['world'])), has_any_index('x', parse_json('{\"a\": 1}')), has_any_index('a.b (c)', dynamic(['', '(c)']))", rows: [[0, -1, null, 1]] },
    { q: "print url_encode('a b&c=é/~'), url_encode_component('a b'), url_encode('(x)*!-_.'), url_encode('')", rows: [["a+b%26c%3d%c3%a9%2f%7e", "a%20b", "(x)*!-_.", ""]] },
    { q: "print format_bytes(0), format_bytes(1024), format_bytes(1536, 1), format_bytes(-2048), format_bytes(1073741824, 0, 'MB'), format_bytes(real(null)), format_bytes(100, 0, 'XB')", rows: [["0 Bytes", "1 KB", "1.5 KB", "-2 KB", "1024 MB", "", "100 Bytes"]] },
    // parse_csv: the page's two printed outputs, then empty fields, quotes inside unquoted fields, non-ASCII text.
    { q: "print result = parse_csv('aa,\"b,b,b\",cc,\"Escaping quotes: \"\"Title\"\"\",\"line1\\nline2\"'), multi = parse_csv('record1,a,b,c\\nrecord2,x,y,z')", rows: [[["aa", "b,b,b", "cc", 'Escaping quotes: "Title"', "line1\nline2"], ["record1", "a", "b", "c"]]], types: ["dynamic", "dynamic"] },
    { q: "print parse_csv(''), parse_csv(',a,,b,'), parse_csv('a\"b,\"x\"y'), parse_csv('é,\"ü\"\\r\\nz')", rows: [[[""], ["", "a", "", "b", ""], ['a"b', "xy"], ["é", "ü"]]] },
    // parse_url: the page's URL (the page prints the path without its leading '/' and the parameters as text: ADX's value is the object), parts a URL lacks, not a URL.
    {
      q: 'print Result = parse_url("scheme://username:password@host:1234/this/is/a/path?k1=v1&k2=v2#fragment"), b = parse_url("https://www.example.com/a%20b/file.htm?x=1&y=a%20b"), c = parse_url("not a url"), d = parse_url("http://[::1]:80"), e = parse_url("")',
      rows: [[
        { Scheme: "scheme", Host: "host", Port: "1234", Path: "/this/is/a/path", Username: "username", Password: "password", "Query Parameters": { k1: "v1", k2: "v2" }, Fragment: "fragment" },
        { Scheme: "https", Host: "www.example.com", Port: "", Path: "/a%20b/file.htm", Username: "", Password: "", "Query Parameters": { x: "1", y: "a b" }, Fragment: "" },
        {},
        { Scheme: "http", Host: "[::1]", Port: "80", Path: "", Username: "", Password: "", "Query Parameters": {}, Fragment: "" },
        {},
      ]],
    },
    { q: 'print tostring(parse_url("https://h.com:8080/p?q=1").Port), tostring(parse_url("https://h.com/p?q=1")["Query Parameters"].q)', rows: [["8080", "1"]] },
    { q: "print parse_urlquery('k1=v1&k2=a%20b&k3'), parse_urlquery('')", rows: [[{ "Query Parameters": { k1: "v1", k2: "a b", k3: "" } }, { "Query Parameters": {} }]] },
    // Punycode: the pages' printed outputs, then ASCII, empty and invalid input.
    { q: "print encoded = punycode_from_string('académie-française'), decoded = punycode_to_string('acadmie-franaise-npb1a'), han = punycode_from_string('艺术')", rows: [["acadmie-franaise-npb1a", "académie-française", "cqv902d"]] },
    {
      q: 'datatable(encoded:string) ["xn--Ge-mia.Bulg.edu", "xn--Lin-8na.Celtchair.org", "xn--Ry-lja8c.xn--Jng-uta63a.xn--Bng-9ka.com"] | extend domain = punycode_domain_from_string(encoded)',
      rows: [["xn--Ge-mia.Bulg.edu", "Gáe.Bulg.edu"], ["xn--Lin-8na.Celtchair.org", "Lúin.Celtchair.org"], ["xn--Ry-lja8c.xn--Jng-uta63a.xn--Bng-9ka.com", "Rúyì.Jīngū.Bàng.com"]],
    },
    {
      q: "datatable(domain:string) ['Lê Lợi。Thuận Thiên。com', 'Riðill｡Skáldskaparmál｡org', \"Kaledvoulc'h.Artorījos.edu\"] | extend str = punycode_domain_to_string(domain)",
      rows: [["Lê Lợi。Thuận Thiên。com", "xn--L Li-gpa4517b.xn--Thun Thin-s4a7194f.com"], ["Riðill｡Skáldskaparmál｡org", "xn--Riill-jta.xn--Skldskaparml-dbbj.org"], ["Kaledvoulc'h.Artorījos.edu", "Kaledvoulc'h.xn--Artorjos-ejb.edu"]],
    },
    { q: "print a = punycode_from_string('abc'), b = punycode_to_string('abc-'), c = punycode_from_string(''), d = punycode_to_string('!!'), e = punycode_domain_from_string('xn--!!.com'), f = punycode_domain_to_string('plain.com'), g = punycode_to_string('cqv902'), h = punycode_to_string(punycode_from_string('Bücher und Größe'))", rows: [["abc-", "abc", "", "", "", "plain.com", "", "Bücher und Größe"]] },
  ]);
});
