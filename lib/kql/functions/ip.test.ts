/** ip.ts: ADX's IPv4 and IPv6 rules, which DuckDB runs as scalar functions (the engines' answers: conformance/ip-addresses.test.ts). */
import { describe, expect, it } from "vitest";
import * as ip from "./ip";

describe("IPv4", () => {
  it("parses a dotted quad with an optional prefix, and nothing else", () => {
    expect(ip.parseV4("192.168.1.1")).toEqual({ value: 3232235777n, prefix: 32 });
    expect(ip.parseV4("192.168.1.1/24")).toEqual({ value: 3232235777n, prefix: 24 });
    for (const bad of ["", "1.2.3", "1.2.3.4.5", "1.2.3.256", "01.2.3.4", "1.2.3.4/33", "1.2.3.4/", "1.2.3.4/x", " 1.2.3.4", "1..2.3"]) expect(ip.parseV4(bad)).toBeNull();
  });

  it("masks to the shorter prefix", () => {
    expect(ip.parseIpv4("255.255.255.255/31")).toBe(4294967294n);
    expect(ip.parseIpv4Mask("192.168.1.1/24", 16n)).toBe(3232235520n);
    expect(ip.parseIpv4Mask("192.168.1.1", 33n)).toBeNull();
    expect(ip.formatIpv4("192.168.1.1/24", 32n, true)).toBe("192.168.1.0/24");
    expect(ip.formatIpv4(3232235777n, 24n, false)).toBe("192.168.1.0");
    expect(ip.formatIpv4(1n << 32n, 32n, false)).toBeNull();
    expect(ip.formatIpv4("192.168.1.1", -1n, false)).toBeNull();
  });

  it("compares networks, ranges and private addresses", () => {
    expect(ip.ipv4Compare("192.168.1.1/30", "192.168.1.255/24", 32n)).toBe(0n);
    expect(ip.ipv4Compare("10.0.0.1", "10.0.0.2", 32n)).toBe(-1n);
    expect(ip.ipv4Compare("10.0.0.1", "x", 32n)).toBeNull();
    expect(ip.ipv4IsInAnyRange("10.1.2.3", JSON.stringify(["bad", ["192.168.0.0/16", "10.0.0.0/8"]]))).toBe(true);
    expect(ip.ipv4IsInAnyRange("10.1.2.3", "not json")).toBe(false);
    expect(ip.ipv4IsPrivate("172.31.255.255")).toBe(true);
    expect(ip.ipv4IsPrivate("172.32.0.0")).toBe(false);
  });

  it("covers a range with the fewest CIDR blocks", () => {
    expect(JSON.parse(ip.ipv4RangeToCidrList("1.1.128.0", "1.1.140.255")!)).toEqual(["1.1.128.0/21", "1.1.136.0/22", "1.1.140.0/24"]);
    expect(JSON.parse(ip.ipv4RangeToCidrList("0.0.0.1", "255.255.255.254")!)).toHaveLength(62);
    expect(ip.ipv4RangeToCidrList("10.0.0.2", "10.0.0.1")).toBe("[]");
  });

  it("finds addresses delimited by other than letters, digits and dots", () => {
    expect(ip.ipv4sIn("05:04:54 127.0.0.1 GET, from 10.0.0.1. a1.2.3.4 5.6.7.8x 9.9.9.999")).toEqual(["127.0.0.1", "10.0.0.1"]);
    expect(ip.hasAnyIpv4("05:04:54127.0.0.1 GET", JSON.stringify(["127.0.0.1"]))).toBe(false);
    expect(ip.hasAnyIpv4Prefix("x 127.0.0.1", JSON.stringify(["127.0"]))).toBe(false);
    expect(ip.hasAnyIpv4Prefix("x 127.0.0.1", JSON.stringify(["256.", "127.0."]))).toBe(true);
  });
});

describe("IPv6", () => {
  it("reads every RFC 4291 form, IPv4 as mapped with IPv4 prefixes", () => {
    expect(ip.parseIpv6Mask("fe80::85d:e82c:9446:7994/120", 124n)).toBe("fe80:0000:0000:0000:085d:e82c:9446:7900");
    expect(ip.parseIpv6Mask("::192.168.255.255/24", 128n)).toBe("0000:0000:0000:0000:0000:ffff:c0a8:ff00");
    expect(ip.parseIpv6Mask("64:ff9b::10.0.0.1", 128n)).toBe("0064:ff9b:0000:0000:0000:0000:0a00:0001");
    expect(ip.parseIpv6Mask("1:2:3:4:5:6:7:8", 128n)).toBe("0001:0002:0003:0004:0005:0006:0007:0008");
    for (const bad of ["1::2::3", "gggg::", "1:2:3:4:5:6:7:8:9", "1:2:3", "::1/129", "12345::", ":::"]) expect(ip.parseIpv6Mask(bad, 128n)).toBeNull();
  });

  it("compares networks across the two families", () => {
    expect(ip.ipv6Compare("192.168.1.1", "::ffff:c0a8:0101", 128n)).toBe(0n);
    expect(ip.ipv6Compare("::1", "::2", 128n)).toBe(-1n);
    expect(ip.ipv6IsInAnyRange("2001:db8::1", JSON.stringify(["2001:db8::/32"]))).toBe(true);
    expect(ip.ipv6IsInAnyRange("x", JSON.stringify(["::/0"]))).toBeNull();
  });
});
