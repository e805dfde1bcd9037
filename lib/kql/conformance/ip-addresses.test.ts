/**
 * Conformance: the IPv4 and IPv6 functions (functions/ip-addresses.ts) on both engines — the
 * outputs Microsoft's function pages print, then nulls and malformed input (not an address, a
 * prefix out of range: null, '' for a string result; has_* are never null).
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

describe("IPv4 and IPv6 functions", () => {
  conformance([
    // The pages' printed outputs.
    { q: "datatable(ip_string: string) ['192.168.1.1', '192.168.1.1/24', '255.255.255.255/31'] | extend ip_long = parse_ipv4(ip_string)", rows: [["192.168.1.1", 3232235777], ["192.168.1.1/24", 3232235776], ["255.255.255.255/31", 4294967294]], types: ["string", "long"] },
    {
      q: "datatable(address:string, mask:long) ['192.168.1.1', 24, '192.168.1.1', 32, '192.168.1.1/24', 32, '192.168.1.1/24', long(-1)] | extend result = format_ipv4(address, mask), result_mask = format_ipv4_mask(address, mask)",
      rows: [["192.168.1.1", 24, "192.168.1.0", "192.168.1.0/24"], ["192.168.1.1", 32, "192.168.1.1", "192.168.1.1/32"], ["192.168.1.1/24", 32, "192.168.1.0", "192.168.1.0/24"], ["192.168.1.1/24", -1, "", ""]],
    },
    { q: "print ipv4_compare('192.168.1.1/24', '192.168.1.255'), ipv4_compare('192.168.1.1', '192.168.1.0', 31), ipv4_is_match('192.168.1.1/24', '192.168.1.255'), ipv4_is_in_range('192.168.1.1', '192.168.1.255/24')", rows: [[0, 0, true, true]] },
    { q: "print ipv4_is_in_any_range('192.168.1.6', '192.168.1.1/24', '10.0.0.1/8', '127.1.0.1/16'), ipv4_is_in_any_range('127.0.0.1', dynamic(['127.0.0.1', '192.168.1.1']))", rows: [[true, true]] },
    { q: "datatable(ip_string:string) ['10.1.2.3', '192.168.1.1/24', '127.0.0.1'] | extend result = ipv4_is_private(ip_string), suffix = ipv4_netmask_suffix(ip_string)", rows: [["10.1.2.3", true, 32], ["192.168.1.1/24", true, 24], ["127.0.0.1", false, 32]] },
    { q: "print ipv4_range_to_cidr_list('1.1.128.0', '1.1.140.255')", rows: [[["1.1.128.0/21", "1.1.136.0/22", "1.1.140.0/24"]]] },
    {
      q: "print has_ipv4('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0.0.1'), has_ipv4('05:04:54 127.0.0.256 GET', '127.0.0.256'), has_ipv4('05:04:54127.0.0.1 GET', '127.0.0.1'), has_ipv4_prefix('05:04:54 127.0.0.1 GET', '127.0.'), has_ipv4_prefix('05:04:54 127.0.0.1 GET', '127.0')",
      rows: [[true, false, false, true, false]],
    },
    { q: "print has_any_ipv4('05:04:54 127.0.0.1 GET', '127.0.0.1', '127.0.0.2'), has_any_ipv4('05:04:54 127.0.0.1 GET', dynamic(['127.0.0.1', '127.0.0.2'])), has_any_ipv4_prefix('05:04:54 127.0.0.1 GET', dynamic(['127.0.', '192.168.'])), has_any_ipv4_prefix('05:04:54127.0.0.1 GET', '127.0.', '192.')", rows: [[true, true, true, false]] },
    {
      q: "datatable(ip_string: string, netmask: long) ['192.168.255.255/24', 124, 'fe80::85d:e82c:9446:7994/120', 124, '::192.168.255.255/24', 128] | extend ip6 = parse_ipv6(ip_string), ip6_mask = parse_ipv6_mask(ip_string, netmask)",
      rows: [
        ["192.168.255.255/24", 124, "0000:0000:0000:0000:0000:ffff:c0a8:ff00", "0000:0000:0000:0000:0000:ffff:c0a8:ff00"],
        ["fe80::85d:e82c:9446:7994/120", 124, "fe80:0000:0000:0000:085d:e82c:9446:7900", "fe80:0000:0000:0000:085d:e82c:9446:7900"],
        ["::192.168.255.255/24", 128, "0000:0000:0000:0000:0000:ffff:c0a8:ff00", "0000:0000:0000:0000:0000:ffff:c0a8:ff00"],
      ],
    },
    { q: "print ipv6_compare('fe80::85d:e82c:9446:7994/120', 'fe80::85d:e82c:9446:7998'), ipv6_compare('::192.168.1.1/30', '192.168.1.255/24', 127), ipv6_is_match('192.168.1.1', '::ffff:c0a8:0101'), ipv6_is_in_range('a5e:f127:8a9d:146d:e102:b5d3:c755:abcd', '0:0:0:0:0:ffff:c0a8:ac/60')", rows: [[0, 0, true, false]] },
    { q: "print ipv6_is_in_any_range('a5e:f127:8a9d:146d:e102:b5d3:c755:abcd', dynamic(['a5e:f127:8a9d:146d:e102:b5d3:c755:f6cd/112', '0:0:0:0:0:ffff:c0a8:ac/60']))", rows: [[true]] },
    // Malformed input and nulls.
    { q: "print parse_ipv4('1.2.3.256'), parse_ipv4('1.2.3'), parse_ipv4('1.2.3.4/33'), parse_ipv4('01.2.3.4'), parse_ipv4(''), parse_ipv4('10.0.0.1/')", rows: [[null, null, null, null, null, null]] },
    { q: "print parse_ipv4_mask('192.168.1.1/24', 16), parse_ipv4_mask('10.0.0.1', 33), parse_ipv4_mask('10.0.0.1', long(null)), parse_ipv4_mask('10.0.0.1', 0)", rows: [[3232235520, null, null, 0]] },
    { q: "print format_ipv4(3232235777), format_ipv4(3232235777, 24), format_ipv4(-1), format_ipv4('x'), format_ipv4_mask('10.1.2.3', 8), format_ipv4_mask(3232235777, 32), format_ipv4(4294967296)", rows: [["192.168.1.1", "192.168.1.0", "", "", "10.0.0.0/8", "192.168.1.1/32", ""]] },
    { q: "print ipv4_compare('10.0.0.1', '10.0.0.2'), ipv4_compare('10.0.0.2', '10.0.0.1'), ipv4_compare('10.0.0.1', 'x'), ipv4_compare('10.0.0.1', '10.0.0.2', 30), ipv4_compare('10.0.0.1', '10.0.0.2', 33), ipv4_is_match('10.0.0.1', 'x')", rows: [[-1, 1, null, 0, null, null]] },
    { q: "print ipv4_is_in_range('10.1.2.3', '10.0.0.0/8'), ipv4_is_in_range('11.1.2.3', '10.0.0.0/8'), ipv4_is_in_range('bad', '10.0.0.0/8'), ipv4_is_in_any_range('10.1.2.3', 'bad', '10.0.0.0/8'), ipv4_is_in_any_range('1.1.1.1', dynamic(['10.0.0.0/8'])), ipv4_is_in_any_range('bad', '10.0.0.0/8')", rows: [[true, false, null, true, false, null]] },
    { q: "print ipv4_is_private('172.16.5.1'), ipv4_is_private('172.32.0.1'), ipv4_is_private('192.168.0.1'), ipv4_is_private('8.8.8.8'), ipv4_is_private('x'), ipv4_netmask_suffix('10.0.0.1/0'), ipv4_netmask_suffix('10.0.0.1/')", rows: [[true, false, true, false, null, 0, null]] },
    { q: "print ipv4_range_to_cidr_list('10.0.0.0', '10.0.0.0'), ipv4_range_to_cidr_list('0.0.0.0', '255.255.255.255'), ipv4_range_to_cidr_list('10.0.0.5', '10.0.0.2'), ipv4_range_to_cidr_list('x', '10.0.0.1'), ipv4_range_to_cidr_list('10.0.0.1', '10.0.0.6')", rows: [[["10.0.0.0/32"], ["0.0.0.0/0"], [], null, ["10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"]]] },
    { q: "print has_ipv4('ip=10.0.0.1.', '10.0.0.1'), has_ipv4('a10.0.0.1', '10.0.0.1'), has_ipv4('10.0.0.1', '10.0.0.1/8'), has_ipv4('', '1.2.3.4'), has_ipv4_prefix('x 10.20.30.40 y', '10.20.30.40'), has_ipv4_prefix('x 10.20.30.40 y', '10.2.'), has_ipv4_prefix('x 10.20.30.40 y', '10.'), has_ipv4_prefix('x 10.20.30.40', '300.')", rows: [[true, false, false, false, true, false, true, false]] },
    { q: "print has_any_ipv4('no address here', dynamic([])), has_any_ipv4('x 1.2.3.4', dynamic([1, '1.2.3.4'])), has_any_ipv4_prefix('x 1.2.3.4', dynamic(['bad', '1.2.']))", rows: [[false, true, true]] },
    { q: "print parse_ipv6('::1'), parse_ipv6('fe80::1/64'), parse_ipv6('1::2::3'), parse_ipv6('gggg::'), parse_ipv6('::ffff:10.0.0.1'), parse_ipv6_mask('::1', 129), parse_ipv6('FE80::A'), parse_ipv6('64:ff9b::10.0.0.1')", rows: [["0000:0000:0000:0000:0000:0000:0000:0001", "fe80:0000:0000:0000:0000:0000:0000:0000", "", "", "0000:0000:0000:0000:0000:ffff:0a00:0001", "", "fe80:0000:0000:0000:0000:0000:0000:000a", "0064:ff9b:0000:0000:0000:0000:0a00:0001"]] },
    { q: "print ipv6_compare('::1', '::2'), ipv6_compare('::2', '::1'), ipv6_compare('::1', 'x'), ipv6_is_in_range('2001:db8::1', '2001:db8::/32'), ipv6_is_in_any_range('2001:db9::1', '2001:db8::/32', '::/0'), ipv6_is_match('10.0.0.1', '::ffff:a00:1'), ipv6_is_in_any_range('x', '::/0')", rows: [[-1, 1, null, true, true, true, null]] },
  ]);
});
