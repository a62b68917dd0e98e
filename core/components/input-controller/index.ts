// Public face of core/components/input-controller: the input controller API, served by
// svc-server only, platform-neutral but kept out of the MCU's core: its interface, its event
// types and the fake controller (its handlers are core/rpc/components/input-controller-service.ts).
export type { EventFollower, EventInterest, InputController, InputEvent, TriggeredEvent } from "./input-controller.js";
export { ALL_EVENTS, BUTTON_CHANGE, EVENT_TYPES, interestedIn } from "./event-types.js";
export { createFakeInputControllerModel, fakeInputControllerModel, readFakeInputAttributes } from "./fake-input-controller.js";
export type { FakeInputAttributes, FakeInputControllerOptions } from "./fake-input-controller.js";
