// Clock milliseconds as the protobuf Timestamp and Duration the wire carries.
import type { DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import type { MessageInitShape } from "@bufbuild/protobuf";

export type TimestampInit = MessageInitShape<typeof TimestampSchema>;
export type DurationInit = MessageInitShape<typeof DurationSchema>;

function split(ms: number): { seconds: bigint; nanos: number } {
  const whole = Math.floor(ms / 1000);
  return { seconds: BigInt(whole), nanos: Math.min(999_999_999, Math.round((ms - whole * 1000) * 1e6)) };
}

export function timestampFromMs(ms: number): TimestampInit {
  return split(ms);
}

export function durationFromMs(ms: number): DurationInit {
  return split(ms);
}
