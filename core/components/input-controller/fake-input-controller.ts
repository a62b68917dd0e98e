// The fake input controller (rdk:builtin:fake), after Viam's: its controls are those its
// `controls` attribute lists (AbsoluteX and ButtonStart unless set). Every period of the clock
// (`callback_delay_sec`; a fresh 1 to 2 s each period when unset or 0) it draws a value
// (`event_value`; a fresh random number in [0, 1) when unset): AbsoluteX, when it is one of the
// controls, takes that value as a PositionChangeAbs, and every follower receives one event of
// each type it asked for on each control it asked about, with that value. Events injected with
// TriggerEvent become their control's latest event and reach the followers asking for them.
import type { Clock } from "../../clock.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { INPUT_CONTROLLER_API, FAKE_MODEL } from "../api-names.js";
import { failOnIssues, readAttributes, type AttributeReader } from "../attributes.js";
import { POSITION_CHANGE_ABS, interestedIn } from "./event-types.js";
import type { EventFollower, EventInterest, InputController, InputEvent } from "./input-controller.js";

const ABSOLUTE_X = "AbsoluteX";
const DEFAULT_CONTROLS = [ABSOLUTE_X, "ButtonStart"];
// A day: far beyond any useful period, and within what a host's timer can wait.
const MAX_DELAY_SEC = 86_400;

export interface FakeInputAttributes {
  controls: string[];
  /** The value of every event it makes; undefined for a fresh random one each period. */
  eventValue?: number;
  /** The period in milliseconds; undefined for a fresh random one each period. */
  delayMs?: number;
}

function controlsOf(a: AttributeReader, given: unknown): string[] {
  if (given === undefined || given === null) return [...DEFAULT_CONTROLS];
  if (!Array.isArray(given)) {
    a.problem("controls", "must be a list of control names");
    return [...DEFAULT_CONTROLS];
  }
  const controls: string[] = [];
  given.forEach((control: unknown, i) => {
    if (typeof control !== "string" || control === "") a.problem(`controls[${i}]`, "must be a non-empty string");
    else if (controls.includes(control)) a.problem(`controls[${i}]`, `${control} is listed twice`);
    else controls.push(control);
  });
  if (given.length === 0) a.problem("controls", "must list at least one control");
  return controls;
}

export function readFakeInputAttributes(attributes: Record<string, unknown> | undefined, path: string): { value: FakeInputAttributes; reader: AttributeReader } {
  const a = readAttributes(attributes, path);
  const delaySec = a.number("callback_delay_sec", { min: 0, max: MAX_DELAY_SEC });
  const value: FakeInputAttributes = {
    controls: controlsOf(a, attributes?.controls),
    eventValue: a.number("event_value"),
    // 0 stands for "unset", as in Viam's configurations.
    delayMs: delaySec === undefined || delaySec === 0 ? undefined : delaySec * 1000,
  };
  return { value, reader: a };
}

interface Following {
  interests: readonly EventInterest[];
  follower: EventFollower;
}

function createFakeInputController(name: InputController["name"], clock: Clock, attributes: FakeInputAttributes, random: () => number): InputController {
  const { controls } = attributes;
  const latest = new Map<string, InputEvent>();
  const followings = new Set<Following>();
  const fullName = formatResourceName(name);
  let timer: unknown;
  let closed = false;

  const draw = () => attributes.eventValue ?? random();
  const moveAxis = (value: number, timeMs: number) => {
    if (controls.includes(ABSOLUTE_X)) latest.set(ABSOLUTE_X, { timeMs, event: POSITION_CHANGE_ABS, control: ABSOLUTE_X, value });
  };

  // One period: the axis moves and every follower hears of each event it asked for.
  const tick = () => {
    if (closed) return;
    const value = draw();
    const timeMs = clock.now();
    moveAxis(value, timeMs);
    for (const { interests, follower } of Array.from(followings)) {
      for (const interest of interests) {
        for (const event of interest.events) follower.event({ timeMs, event, control: interest.control, value });
      }
    }
    arm();
  };
  const arm = () => {
    timer = clock.setTimeout(tick, attributes.delayMs ?? 1000 + random() * 1000);
  };

  moveAxis(draw(), clock.now());
  arm();

  return {
    name,
    async controls() {
      return [...controls];
    },
    async events() {
      return controls.flatMap((control) => {
        const event = latest.get(control);
        return event === undefined ? [] : [{ ...event }];
      });
    },
    async triggerEvent(event) {
      if (!controls.includes(event.control)) {
        throw new SvcError(Code.InvalidArgument, `event.control: ${fullName} has no control ${JSON.stringify(event.control)} (it has ${controls.join(", ")})`);
      }
      const happened: InputEvent = { ...event, timeMs: event.timeMs ?? clock.now() };
      latest.set(event.control, happened);
      for (const { interests, follower } of Array.from(followings)) {
        if (interests.some((interest) => interestedIn(interest, happened))) follower.event({ ...happened });
      }
    },
    follow(interests, follower) {
      const unknown = interests.find((interest) => !controls.includes(interest.control));
      if (unknown !== undefined) {
        throw new SvcError(Code.InvalidArgument, `events: ${fullName} has no control ${JSON.stringify(unknown.control)} (it has ${controls.join(", ")})`);
      }
      if (closed) throw new SvcError(Code.Unavailable, `${fullName} is closed`);
      const following: Following = { interests, follower };
      followings.add(following);
      return () => {
        followings.delete(following);
      };
    },
    async doCommand(command) {
      return command;
    },
    async close() {
      closed = true;
      clock.clearTimeout(timer);
      const ended = Array.from(followings);
      followings.clear();
      for (const { follower } of ended) follower.end(new SvcError(Code.Unavailable, `${fullName} closed`));
    },
  };
}

export interface FakeInputControllerOptions {
  /** Numbers in [0, 1): the values and periods when the attributes leave them unset. */
  random?: () => number;
}

export function createFakeInputControllerModel(options: FakeInputControllerOptions = {}): ModelRegistration<InputController> {
  const random = options.random ?? Math.random;
  return {
    api: INPUT_CONTROLLER_API,
    model: FAKE_MODEL,
    attributesSchema: {
      type: "object",
      properties: {
        controls: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, description: "the controls' names", default: DEFAULT_CONTROLS },
        event_value: { type: "number", description: "the value of every event it makes; a random one in [0, 1) each period when unset" },
        callback_delay_sec: {
          type: "number",
          minimum: 0,
          maximum: MAX_DELAY_SEC,
          description: "seconds between the events it makes; a random 1 to 2 s each period when unset or 0",
        },
      },
    },
    validate(config, path) {
      return { issues: readFakeInputAttributes(config.attributes, path).reader.issues };
    },
    async build(ctx) {
      const { value, reader } = readFakeInputAttributes(ctx.config.attributes, formatResourceName(ctx.name));
      failOnIssues(reader.issues);
      return createFakeInputController(ctx.name, ctx.clock, value, random);
    },
  };
}

export const fakeInputControllerModel = createFakeInputControllerModel();
