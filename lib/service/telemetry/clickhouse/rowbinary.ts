/**
 * Rows in ClickHouse's RowBinary format, the insert format of ingestion's batches
 * (ingest/clickhouse-sink.ts): each value in its column's binary form, row after row — a String as
 * its UTF-8 length (LEB128) and bytes, a Nullable as one byte (1: NULL) before the value,
 * DateTime64(3) as its Int64 of milliseconds, Float64 as 8 bytes, all little-endian. Cheaper to
 * build than JSON text and parsed by ClickHouse without reading any text (docs/telemetry-ingest.md,
 * "Where the readings go").
 */

/** A value's bytes, encoded once and copied into every row that carries it. */
export function encodedString(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length: number[] = [];
  let n = bytes.length;
  while (n >= 0x80) {
    length.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  length.push(n);
  return Buffer.concat([Buffer.from(length), bytes]);
}

/** `Nullable(String)`: the null byte, then the string. */
export function encodedNullableString(text: string | null): Buffer {
  return text === null ? Buffer.from([1]) : Buffer.concat([Buffer.from([0]), encodedString(text)]);
}

export class RowBinaryWriter {
  private buffer: Buffer;
  private offset = 0;

  constructor(expectedBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, expectedBytes));
  }

  private room(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(next, 0, 0, this.offset);
    this.buffer = next;
  }

  /** Bytes already in RowBinary form (encodedString, encodedNullableString). */
  raw(bytes: Buffer): void {
    this.room(bytes.length);
    this.offset += bytes.copy(this.buffer, this.offset);
  }

  /** DateTime64(3) (or Int64) of a whole number of milliseconds within ±2^47. */
  int64(value: number): void {
    this.room(8);
    this.buffer.writeIntLE(value, this.offset, 6);
    const sign = value < 0 ? 0xff : 0;
    this.buffer[this.offset + 6] = sign;
    this.buffer[this.offset + 7] = sign;
    this.offset += 8;
  }

  nullableInt64(value: number | null): void {
    this.room(1);
    this.buffer[this.offset++] = value === null ? 1 : 0;
    if (value !== null) this.int64(value);
  }

  nullableFloat64(value: number | null): void {
    this.room(9);
    this.buffer[this.offset++] = value === null ? 1 : 0;
    if (value === null) return;
    this.buffer.writeDoubleLE(value, this.offset);
    this.offset += 8;
  }

  /** The rows written so far (a view of the writer's buffer). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }
}
