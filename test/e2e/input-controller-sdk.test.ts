// The input controller API on the real svc-server, through the official SDK's
// InputControllerClient (GetEvents, TriggerEvent, DoCommand) and, for the calls that client does
// not make (GetControls, StreamEvents), a connect client over gRPC with svc's own descriptor: the
// fake lists its configured controls, moves AbsoluteX every period to its event_value, keeps an
// injected event as its control's latest, and streams exactly the events asked for (periodic
// ones and injected ones, less those cancelled) until the controller goes away. Requests it
// cannot mean are INVALID_ARGUMENT naming the field; an unknown controller is NOT_FOUND.
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputControllerService } from "../../proto/gen/component/inputcontroller/v1/input_controller_pb.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const INPUT = "rdk:component:input_controller";
const pad = { name: "pad", api: INPUT, model: "fake", attributes: { controls: ["AbsoluteX", "ButtonSouth", "ButtonStart"], event_value: 0.5, callback_delay_sec: 0.05 } };
// As Viam's fake configuration writes it: no attributes at all.
const plain = { name: "plain", type: "input_controller", model: "fake" };

const seconds = (ms: number) => ({ seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

describe("an input controller through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  let grpc: Client<typeof InputControllerService>;
  const controller = (name = "pad") => new VIAM.InputControllerClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer({ components: [pad, plain] });
    robot = await dialSdk(server.sdkHost);
    grpc = createClient(InputControllerService, createGrpcTransport({ baseUrl: server.url }));
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${INPUT}/pad`]: "READY", [`${INPUT}/plain`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      `${INPUT} viam.component.inputcontroller.v1.InputControllerService`,
    );
  });

  it("lists its configured controls, or AbsoluteX and ButtonStart as Viam's fake has them", async () => {
    expect((await grpc.getControls({ controller: "pad" })).controls).toEqual(["AbsoluteX", "ButtonSouth", "ButtonStart"]);
    expect((await grpc.getControls({ controller: "plain" })).controls).toEqual(["AbsoluteX", "ButtonStart"]);
  });

  it("reports AbsoluteX at its event_value, moved within the last periods", async () => {
    const before = Date.now();
    const moved = await eventually(async () => {
      const [x] = await controller().getEvents();
      return x !== undefined && x.time!.toDate().getTime() >= before - 1000 ? x : undefined;
    }, "a recent AbsoluteX event");
    expect([moved.control, moved.event, moved.value]).toEqual(["AbsoluteX", "PositionChangeAbs", 0.5]);
    const [random] = await controller("plain").getEvents();
    expect([random?.control, random?.event]).toEqual(["AbsoluteX", "PositionChangeAbs"]);
    expect(random!.value).toBeGreaterThanOrEqual(0);
    expect(random!.value).toBeLessThan(1);
  });

  it("keeps an injected event as its control's latest, at the time given or now", async () => {
    const at = Date.UTC(2030, 0, 2, 3, 4, 5, 250);
    await controller().triggerEvent(new VIAM.InputControllerEvent({ time: seconds(at), event: "ButtonPress", control: "ButtonSouth", value: 1 }));
    let events = await controller().getEvents();
    const south = events.find((e) => e.control === "ButtonSouth");
    expect([south?.event, south?.value, south?.time?.toDate().getTime()]).toEqual(["ButtonPress", 1, at]);

    const before = Date.now();
    await controller().triggerEvent(new VIAM.InputControllerEvent({ event: "ButtonRelease", control: "ButtonSouth", value: 0 }));
    events = await controller().getEvents();
    const released = events.find((e) => e.control === "ButtonSouth")!;
    expect([released.event, released.value]).toEqual(["ButtonRelease", 0]);
    expect(released.time!.toDate().getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(events.map((e) => e.control)).toEqual(["AbsoluteX", "ButtonSouth"]);
  });

  it("streams the events asked for, periodic and injected, and none of those cancelled", async () => {
    const abort = new AbortController();
    const stream = grpc.streamEvents(
      {
        controller: "pad",
        events: [
          { control: "AbsoluteX", events: ["PositionChangeAbs"] },
          { control: "ButtonSouth", events: ["ButtonChange"] },
          { control: "ButtonStart", events: ["ButtonPress", "ButtonHold"], cancelledEvents: ["ButtonPress"] },
        ],
      },
      { signal: abort.signal },
    );
    const seen: string[] = [];
    let triggered = false;
    try {
      for await (const message of stream) {
        expect(message.event?.time).toBeDefined();
        seen.push(`${message.event?.control} ${message.event?.event} ${message.event?.value}`);
        // Once the stream is following, inject two presses: ButtonStart's, whose type was
        // cancelled, then ButtonSouth's, which ButtonChange covers. Events come in order, so the
        // first would arrive before the second.
        if (!triggered) {
          triggered = true;
          await controller().triggerEvent(new VIAM.InputControllerEvent({ event: "ButtonPress", control: "ButtonStart", value: 1 }));
          await controller().triggerEvent(new VIAM.InputControllerEvent({ event: "ButtonPress", control: "ButtonSouth", value: 1 }));
        }
        if (seen.includes("ButtonSouth ButtonPress 1") && seen.includes("ButtonStart ButtonHold 0.5")) break;
      }
    } finally {
      abort.abort();
    }
    // Each period brings one event of each type asked for, valued event_value.
    expect(seen).toEqual(expect.arrayContaining(["AbsoluteX PositionChangeAbs 0.5", "ButtonSouth ButtonChange 0.5", "ButtonStart ButtonHold 0.5"]));
    expect(seen.filter((kind) => kind.includes("ButtonPress"))).toEqual(["ButtonSouth ButtonPress 1"]);
  });

  it("answers INVALID_ARGUMENT, naming the field, for what it cannot mean", async () => {
    const press = (control: string, event = "ButtonPress") => controller().triggerEvent(new VIAM.InputControllerEvent({ event, control, value: 1 }));
    await expect(press("ButtonNorth")).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining(`event.control: ${INPUT}/pad has no control "ButtonNorth" (it has AbsoluteX, ButtonSouth, ButtonStart)`),
    });
    await expect(press("ButtonSouth", "Wiggle")).rejects.toMatchObject({ code: 3, message: expect.stringContaining('event.event: "Wiggle" is not an event type') });
    await expect(press("ButtonSouth", "AllEvents")).rejects.toMatchObject({ code: 3, message: expect.stringContaining("event.event: AllEvents names several event types") });
    await expect(controller().triggerEvent(new VIAM.InputControllerEvent({ control: "" }))).rejects.toMatchObject({ code: 3, message: expect.stringContaining("event.control: must not be empty") });

    const refused = async (events: Array<{ control: string; events: string[] }>) => {
      try {
        for await (const message of grpc.streamEvents({ controller: "pad", events })) return message;
      } catch (error) {
        return ConnectError.from(error);
      }
      return undefined;
    };
    expect(await refused([{ control: "Pedal", events: ["ButtonPress"] }])).toMatchObject({ code: Code.InvalidArgument, rawMessage: expect.stringContaining('events: rdk:component:input_controller/pad has no control "Pedal"') });
    expect(await refused([{ control: "ButtonSouth", events: ["ButtonPress", "Squeeze"] }])).toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: expect.stringContaining('events[0].events[1]: "Squeeze" is not an event type'),
    });
  });

  it("answers NOT_FOUND for a controller not configured, UNIMPLEMENTED for geometries, and echoes DoCommand", async () => {
    await expect(controller("nope").getEvents()).rejects.toMatchObject({ code: 5 });
    await expect(grpc.getControls({ controller: "nope" })).rejects.toMatchObject({ code: Code.NotFound });
    await expect(grpc.getGeometries({ name: "pad" })).rejects.toMatchObject({ code: Code.Unimplemented, rawMessage: expect.stringContaining(`${INPUT}/pad does not support GetGeometries`) });
    expect(await controller().doCommand(VIAM.Struct.fromJson({ hello: "pad" }))).toEqual({ hello: "pad" });
  });

  it("ends a stream with UNAVAILABLE when its controller is removed", async () => {
    const stream = grpc.streamEvents({ controller: "pad", events: [{ control: "AbsoluteX", events: ["PositionChangeAbs"] }] });
    const ended = (async () => {
      try {
        let first = true;
        for await (const message of stream) {
          expect(message.event?.control).toBe("AbsoluteX");
          // Following for sure: now take the controller away.
          if (first) server.writeConfig({ components: [plain] });
          first = false;
        }
        return undefined;
      } catch (error) {
        return ConnectError.from(error);
      }
    })();
    expect(await ended).toMatchObject({ code: Code.Unavailable, rawMessage: expect.stringContaining(`${INPUT}/pad closed`) });
    await eventually(async () => ((await robot.getMachineStatus()).resources.some((r) => r.name?.name === "pad") ? undefined : true), "pad removed");
  });
});
