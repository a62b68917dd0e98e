// The encoder API: a position in ticks or degrees.
import type { Commandable, Extra } from "./commandable.js";

export type EncoderPositionType = "unspecified" | "ticks_count" | "angle_degrees";

export interface EncoderPosition {
  value: number;
  positionType: EncoderPositionType;
}

export interface EncoderProperties {
  ticksCountSupported: boolean;
  angleDegreesSupported: boolean;
}

export interface Encoder extends Commandable {
  /** In the unit asked for; "unspecified" lets the encoder choose (and say which in the answer). */
  getPosition(positionType?: EncoderPositionType, extra?: Extra): Promise<EncoderPosition>;
  resetPosition(extra?: Extra): Promise<void>;
  getProperties(extra?: Extra): Promise<EncoderProperties>;
}
