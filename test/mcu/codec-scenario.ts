// The MCU codec run on whatever engine loads this module (Node, or XS through ScenarioInXs):
// samples in as tagged JSON, their bytes out as hex, and bytes in as hex, their shapes out.
import { createWireCodec, wireTables } from "../../targets/mcu/codec/index.js";
import { bytesOfHex, fromTagged, hexOf, toTagged } from "./tagged-json.js";

export interface CodecScenarioInput {
  encode: Array<{ index: number; init: unknown }>;
  decode: Array<{ index: number; hex: string }>;
}

export interface CodecScenarioOutput {
  encoded: string[];
  decoded: unknown[];
}

export async function runCodecScenario(input: CodecScenarioInput): Promise<CodecScenarioOutput> {
  const codec = createWireCodec(wireTables);
  return {
    encoded: input.encode.map((s) => hexOf(codec.encode(s.index, fromTagged(s.init) as object))),
    decoded: input.decode.map((d) => toTagged(codec.decode(d.index, bytesOfHex(d.hex)))),
  };
}
