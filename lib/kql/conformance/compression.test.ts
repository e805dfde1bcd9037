/** Conformance: zlib and gzip to and from base64 (functions/compression.ts): the pages' printed outputs on DuckDB; ClickHouse refuses them by name. */
import { describe, expect, it } from "vitest";
import { conformance, runOn } from "../../service/telemetry/testing/kql-conformance";

const CLICKHOUSE = "chdb has no zlib or gzip compression of values";

describe("compression", () => {
  conformance([
    { q: 'print zcomp = zlib_compress_to_base64_string("1234567890qwertyuiop")', rows: [["eAEBFADr/zEyMzQ1Njc4OTBxd2VydHl1aW9wOAkGdw=="]], knownGap: { clickhouse: CLICKHOUSE } },
    { q: 'print zcomp = zlib_decompress_from_base64_string("eJwLSS0uUSguKcrMS1cwNDIGACxqBQ4=")', rows: [["Test string 123"]], knownGap: { clickhouse: CLICKHOUSE } },
    { q: 'print res = gzip_compress_to_base64_string("1234567890qwertyuiop")', rows: [["H4sIAAAAAAAA/wEUAOv/MTIzNDU2Nzg5MHF3ZXJ0eXVpb3A6m7f2FAAAAA=="]], knownGap: { clickhouse: CLICKHOUSE } },
    { q: 'print res = gzip_decompress_from_base64_string("H4sIAAAAAAAA/wEUAOv/MTIzNDU2Nzg5MHF3ZXJ0eXVpb3A6m7f2FAAAAA==")', rows: [["1234567890qwertyuiop"]], knownGap: { clickhouse: CLICKHOUSE } },
    // Not a stream of that kind: ''; a round trip keeps text beyond ASCII.
    { q: 'print a = zlib_decompress_from_base64_string("x0x0x0"), b = gzip_decompress_from_base64_string("x0x0x0"), c = gzip_decompress_from_base64_string(zlib_compress_to_base64_string("x"))', rows: [["", "", ""]], knownGap: { clickhouse: CLICKHOUSE } },
    { q: 'print r = zlib_decompress_from_base64_string(zlib_compress_to_base64_string("Grüße, 東京")), g = gzip_decompress_from_base64_string(gzip_compress_to_base64_string("Grüße, 東京"))', rows: [["Grüße, 東京", "Grüße, 東京"]], knownGap: { clickhouse: CLICKHOUSE } },
  ]);

  it("clickhouse: refuses them, naming the function", async () => {
    await expect(runOn("clickhouse", 'print zlib_compress_to_base64_string("x")')).rejects.toThrow(/zlib_compress_to_base64_string\(\) is not supported on the ClickHouse engine/);
  });
});
