// Public face of targets/mcu/codec: the compact protobuf codec the MCU serves with, its generated
// tables, and UTF-8 for hosts without TextEncoder.
export { createWireCodec } from "./wire-codec.js";
export type { WireCodec } from "./wire-codec.js";
export { wireTables } from "./gen/wire-tables.js";
export { methodRows } from "./wire-tables.js";
export type { MethodRow, WireTables } from "./wire-tables.js";
export { decodeUtf8, encodeUtf8 } from "./utf8.js";
