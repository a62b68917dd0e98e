// The simulated hardware host: a board described in data, used by the fake models and the tests.
export { createSimBoard, type SimBoard, type SimBoardDescription, type PwmState } from "./board.js";
export type { SimI2CDevice } from "./i2c.js";
export type { SimSerialWiring } from "./serial.js";
