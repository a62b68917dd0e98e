// The simulated hardware host: a board described in data, used by the fake models and the tests,
// and device models for the parts the built-in drivers talk to.
export { createSimBoard, type SimBoard, type SimBoardDescription, type PwmState } from "./board.js";
export type { SimI2CDevice, SimI2CModel } from "./i2c.js";
export type { SimSerialWiring } from "./serial.js";
export { createWordRegisters, type WordRegisters } from "./word-registers.js";
export { createSimIna219, INA219_CONFIG_DEFAULT, type SimIna219 } from "./ina219.js";
export { createSimAds1x15, ADS1X15_FULL_SCALE, type SimAds1x15 } from "./ads1115.js";
