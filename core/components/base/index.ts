// Public face of core/components/base: the base API, served by svc-server only, platform-neutral
// but kept out of the MCU's core (no public face of the core exports it): its interface, the fake
// base and the wheeled base, a differential drive over the machine's motors. Its handlers are
// core/rpc/components/base-service.ts.
export type { Base, BaseProperties } from "./base.js";
export { fakeBaseModel, readFakeBaseAttributes } from "./fake-base.js";
export type { FakeBaseAttributes } from "./fake-base.js";
export { WHEELED_MODEL, wheeledBaseModel } from "./wheeled-base.js";
export { readWheeledBaseAttributes } from "./wheeled-attributes.js";
export type { WheeledBaseAttributes } from "./wheeled-attributes.js";
export { powerSplit, spinGoFor, straightGoFor, velocityRpm } from "./wheel-speeds.js";
export type { BaseGeometry, SideGoFor, Sides } from "./wheel-speeds.js";
