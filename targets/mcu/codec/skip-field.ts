// Skipping a field this codec does not know: its value read past by wire type (a group, an old
// encoding, up to its matching end), so a message from a newer peer still decodes.
import { WIRE_DELIMITED, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT } from "./wire-writer.js";

const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;

/** What skipping needs of a reader. */
export interface FieldSkipper {
  readonly pos: number;
  tag(): number;
  uint32(): number;
  delimitedEnd(): number;
  skipBytes(n: number): void;
}

export function skipField(reader: FieldSkipper, wireType: number, no: number): void {
  switch (wireType) {
    case WIRE_VARINT:
      reader.uint32();
      return;
    case WIRE_FIXED64:
      reader.skipBytes(8);
      return;
    case WIRE_DELIMITED:
      reader.skipBytes(reader.delimitedEnd() - reader.pos);
      return;
    case WIRE_FIXED32:
      reader.skipBytes(4);
      return;
    case WIRE_START_GROUP:
      for (;;) {
        const tag = reader.tag();
        if ((tag & 7) === WIRE_END_GROUP) {
          if (tag >>> 3 !== no) throw new Error(`a group of field ${no} ended as field ${tag >>> 3}`);
          return;
        }
        skipField(reader, tag & 7, tag >>> 3);
      }
    default:
      throw new Error(`field ${no} has the unknown wire type ${wireType}`);
  }
}
