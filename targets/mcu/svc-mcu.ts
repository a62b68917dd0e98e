// The MCU target's bundle (dist/mcu/svc-mcu.mjs): the machine on the core, its HTTP exchange,
// and its two hosts: a device (Moddable's HTTP server and `device.io`) and a host's XS engine
// driven by the Node shim. Importing it does nothing; the host calls one of the starters.
export { createMcuMachine } from "./mcu-machine.js";
export type { ConfigReport, McuMachine, McuMachineOptions } from "./mcu-machine.js";
export { createHttpExchange, CONFIG_ROUTE, grpcTimeoutMs } from "./http-exchange.js";
export type { HttpArrival, HttpCall, HttpExchange, HttpExchangeOptions, HttpHead, HttpRequest, HttpResponse } from "./http-exchange.js";
export { MAX_CONFIG_BODY_BYTES, MAX_GRPC_WEB_BODY_BYTES, requestBodyLimit } from "./body-limits.js";
export { DEFAULT_TOKEN_TTL_MS } from "./api-key-gate.js";
export type { ApiKeyGate, ApiKeyGateSettings } from "./api-key-gate.js";
export { createDrivenClock } from "./driven-clock.js";
export type { DrivenClock } from "./driven-clock.js";
export { installXsnapHost } from "./xsnap-host.js";
export type { XsnapHostOptions } from "./xsnap-host.js";
export { startDevice } from "./device-main.js";
export type { Device, DeviceOptions, ModdableTimer } from "./device-main.js";
export { createModdableIO } from "../../hal/mcu/index.js";
export { MCU_PLATFORM, SVC_VERSION, VIAM_API_VERSION } from "./version.js";
