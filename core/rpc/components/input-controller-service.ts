// viam.component.inputcontroller.v1.InputControllerService: the controls, the latest event of
// each, an injected event, and a server stream of the events asked for (per control, the types
// wanted less those cancelled) that runs until the client leaves or the controller closes.
// Requests name the controller in `controller`.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  EventSchema,
  InputControllerService,
  StreamEventsRequest_Events,
  Event as WireEvent,
} from "../../../proto/gen/component/inputcontroller/v1/input_controller_pb.js";
import { Code, SvcError } from "../../errors/index.js";
import { INPUT_CONTROLLER_API } from "../../components/index.js";
import {
  ALL_EVENTS,
  BUTTON_CHANGE,
  EVENT_TYPES,
  type EventInterest,
  type InputController,
  type InputEvent,
  type TriggeredEvent,
} from "../../components/input-controller/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { timestampFromMs } from "../robot/wire-time.js";
import { createEventQueue } from "./event-queue.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

// A stream whose reader falls this far behind loses its oldest events.
const MAX_QUEUED_EVENTS = 1024;

const wireEvent = (e: InputEvent): MessageInitShape<typeof EventSchema> => ({ time: timestampFromMs(e.timeMs), event: e.event, control: e.control, value: e.value });

function eventType(type: string, field: string, injected: boolean): string {
  if (!EVENT_TYPES.includes(type)) throw new SvcError(Code.InvalidArgument, `${field}: ${JSON.stringify(type)} is not an event type (${EVENT_TYPES.join(", ")})`);
  if (injected && (type === ALL_EVENTS || type === BUTTON_CHANGE)) {
    throw new SvcError(Code.InvalidArgument, `${field}: ${type} names several event types and can only be asked for, not triggered`);
  }
  return type;
}

/** The event a TriggerEvent request injects, checked. */
function injectedEvent(event: WireEvent | undefined): TriggeredEvent {
  if (event === undefined) throw new SvcError(Code.InvalidArgument, "event: required");
  if (event.control === "") throw new SvcError(Code.InvalidArgument, "event.control: must not be empty");
  if (!isFinite(event.value)) throw new SvcError(Code.InvalidArgument, "event.value: must be a finite number");
  const timeMs = event.time === undefined ? undefined : Number(event.time.seconds) * 1000 + event.time.nanos / 1e6;
  return { timeMs, event: eventType(event.event, "event.event", true), control: event.control, value: event.value };
}

/** What each entry of a StreamEvents request asks for: the types wanted less those cancelled. */
function interestsOf(entries: readonly StreamEventsRequest_Events[]): EventInterest[] {
  return entries.flatMap((entry, i) => {
    if (entry.control === "") throw new SvcError(Code.InvalidArgument, `events[${i}].control: must not be empty`);
    entry.events.forEach((type, j) => eventType(type, `events[${i}].events[${j}]`, false));
    const events = entry.events.filter((type) => !entry.cancelledEvents.includes(type));
    return events.length === 0 ? [] : [{ control: entry.control, events }];
  });
}

export function createInputControllerService(lookup: ResourceLookup): ServiceHandlers<typeof InputControllerService> {
  const controller = (name: string, method: keyof InputController & string, rpc: string) =>
    resolve<InputController>(lookup, INPUT_CONTROLLER_API, name, method, rpc);
  return {
    async getControls(request) {
      return { controls: await controller(request.controller, "controls", "GetControls").controls(request.extra) };
    },
    async getEvents(request) {
      const events = await controller(request.controller, "events", "GetEvents").events(request.extra);
      return { events: events.map(wireEvent) };
    },
    async triggerEvent(request) {
      const c = controller(request.controller, "triggerEvent", "TriggerEvent");
      await c.triggerEvent(injectedEvent(request.event), request.extra);
      return {};
    },
    async *streamEvents(request, call) {
      const c = controller(request.controller, "follow", "StreamEvents");
      const interests = interestsOf(request.events);
      const queue = createEventQueue<InputEvent>(MAX_QUEUED_EVENTS);
      const stop = c.follow(interests, { event: queue.push, end: queue.fail });
      const forget = call.onCancel(queue.close);
      try {
        for (let event = await queue.next(); event !== undefined; event = await queue.next()) {
          yield { event: wireEvent(event) };
        }
      } finally {
        forget();
        stop();
      }
    },
    doCommand: doCommandMethod(lookup, INPUT_CONTROLLER_API),
    getGeometries: geometriesUnsupportedMethod(lookup, INPUT_CONTROLLER_API),
  };
}
