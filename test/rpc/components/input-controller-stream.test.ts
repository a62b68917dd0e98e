// The fake input controller on a manual clock and the StreamEvents handler over it: the period and
// the value come from the attributes or, when unset, from the injected random source; a stream
// stops following when its call is cancelled and ends with UNAVAILABLE when the controller
// closes; a reader far behind loses the oldest events, not the newest.
import { afterEach, describe, expect, it } from "vitest";
import { createFakeInputControllerModel, type InputController, type InputEvent } from "../../../core/components/input-controller/index.js";
import { createInputControllerService } from "../../../core/rpc/components/input-controller-service.js";
import { createResourceLookup, createManualClock, SvcError, type ManualClock } from "../../../core/index.js";
import { testCall } from "./rpc-machine.js";

const NAME = { namespace: "rdk", type: "component", subtype: "input_controller", name: "pad" };

let controller: InputController | undefined;
afterEach(async () => {
  await controller?.close();
  controller = undefined;
});

async function build(attributes: Record<string, unknown>, clock: ManualClock, random = () => 0.25): Promise<InputController> {
  const model = createFakeInputControllerModel({ random });
  const config = { name: "pad", api: "rdk:component:input_controller", model: "rdk:builtin:fake", attributes, depends_on: [] };
  controller = await model.build({
    name: NAME,
    config,
    dependencies: { get: () => undefined, names: () => [] },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    clock,
    cancelled: () => false,
  });
  return controller;
}

/** The handlers over one controller, with a spy on how many follow it. */
function serve(c: InputController) {
  let following = 0;
  const spied: InputController = {
    ...c,
    follow(interests, follower) {
      const stop = c.follow(interests, follower);
      following++;
      return () => {
        following--;
        stop();
      };
    },
  };
  const lookup = createResourceLookup({ resource: (full) => (full === "rdk:component:input_controller/pad" ? spied : undefined), resourceStatus: () => undefined });
  return { handlers: createInputControllerService(lookup), following: () => following };
}

const request = (control: string, events: string[]) => ({ controller: "pad", events: [{ control, events, cancelledEvents: [] }] }) as never;
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("the fake input controller on a manual clock", () => {
  it("draws its period (1 to 2 s) and its value from the random source when the attributes leave them unset", async () => {
    const clock = createManualClock(1_000);
    const draws = [0.1, 0.25, 0.7, 0.5];
    const c = await build({}, clock, () => draws.shift() ?? 0);
    const seen: InputEvent[] = [];
    c.follow([{ control: "AbsoluteX", events: ["PositionChangeAbs"] }], { event: (e) => seen.push(e), end() {} });
    // Built at 1000 with value 0.1; the first period is 1 s + 0.25 s.
    expect(await c.events()).toEqual([{ timeMs: 1_000, event: "PositionChangeAbs", control: "AbsoluteX", value: 0.1 }]);
    clock.advance(1_249);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual([{ timeMs: 2_250, event: "PositionChangeAbs", control: "AbsoluteX", value: 0.7 }]);
    expect(await c.events()).toEqual(seen);
  });

  it("keeps to callback_delay_sec and event_value when set, and treats a delay of 0 as unset", async () => {
    const clock = createManualClock(0);
    const c = await build({ event_value: -0.75, callback_delay_sec: 0.2 }, clock);
    const seen: number[] = [];
    c.follow([{ control: "ButtonStart", events: ["ButtonHold"] }], { event: (e) => seen.push(e.timeMs), end() {} });
    clock.advance(1_000);
    expect(seen).toEqual([200, 400, 600, 800, 1_000]);
    expect((await c.events())[0]?.value).toBe(-0.75);
    await c.close();

    const zero = await build({ callback_delay_sec: 0 }, clock, () => 0.5);
    const ticks: number[] = [];
    zero.follow([{ control: "AbsoluteX", events: ["PositionChangeAbs"] }], { event: (e) => ticks.push(e.timeMs), end() {} });
    clock.advance(1_500);
    expect(ticks).toEqual([2_500]);
  });
});

describe("StreamEvents over the fake", () => {
  it("follows while the call lasts and stops following when it is cancelled", async () => {
    const clock = createManualClock(0);
    const { handlers, following } = serve(await build({ event_value: 1, callback_delay_sec: 1 }, clock));
    const call = testCall("/viam.component.inputcontroller.v1.InputControllerService/StreamEvents");
    const stream = handlers.streamEvents(request("AbsoluteX", ["PositionChangeAbs"]), call)[Symbol.asyncIterator]();
    const first = stream.next();
    await flush();
    expect(following()).toBe(1);
    clock.advance(1_000);
    expect(await first).toMatchObject({ done: false, value: { event: { control: "AbsoluteX", event: "PositionChangeAbs", value: 1, time: { seconds: 1n, nanos: 0 } } } });
    const second = stream.next();
    call.cancel();
    expect(await second).toEqual({ done: true, value: undefined });
    expect(following()).toBe(0);
  });

  it("ends with UNAVAILABLE, naming the controller, when the controller closes", async () => {
    const clock = createManualClock(0);
    const c = await build({ callback_delay_sec: 1 }, clock);
    const { handlers, following } = serve(c);
    const stream = handlers.streamEvents(request("ButtonStart", ["ButtonPress"]), testCall())[Symbol.asyncIterator]();
    const next = stream.next();
    await flush();
    await c.close();
    const error = await next.then(
      () => undefined,
      (thrown: unknown) => SvcError.from(thrown),
    );
    expect([error?.code, error?.message]).toEqual([14, "rdk:component:input_controller/pad closed"]);
    expect(following()).toBe(0);
  });

  it("keeps the newest 1024 events for a reader that falls behind", async () => {
    const clock = createManualClock(0);
    const c = await build({ controls: ["ButtonSouth"], callback_delay_sec: 3600 }, clock);
    const { handlers } = serve(c);
    const stream = handlers.streamEvents(request("ButtonSouth", ["ButtonPress"]), testCall())[Symbol.asyncIterator]();
    const first = stream.next();
    await flush();
    const press = (i: number) => c.triggerEvent({ timeMs: i, event: "ButtonPress", control: "ButtonSouth", value: 1 });
    await press(0);
    expect((await first).value).toMatchObject({ event: { time: { seconds: 0n, nanos: 0 } } });
    // The reader waits at its yield while 1099 more come: the oldest 75 of them are dropped.
    for (let i = 1; i < 1_100; i++) await press(i);
    const next = await stream.next();
    expect(next.value).toMatchObject({ event: { time: { seconds: 0n, nanos: 76 * 1e6 } } });
    await stream.return?.(undefined);
  });
});
