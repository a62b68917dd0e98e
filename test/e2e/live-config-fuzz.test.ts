// A bounded fuzz of live configurations against ONE real svc-server process: each round writes a
// damaged configuration to the followed file (random damage from the property tests, nesting and
// strings on both sides of the limits, attributes of the wrong type, dependency cycles, models
// and APIs nobody provides, names used twice, or text that is no configuration at all), waits
// for the server to take it, then writes a good configuration and checks that it applies and
// that the official SDK still answers. A fixed seed, so a failure reproduces; the rounds stop
// when the time budget is spent.
import * as VIAM from "@viamrobotics/sdk";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../config/helpers.js";
import { applyLiveEdit, liveEdit } from "../config/mutation-arbitraries.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SEED = 170_001;
const ROUNDS = 80;
/** How long the rounds may run in all; the test as a whole stays under a minute. */
const BUDGET_MS = 40_000;

/** A machine with one of each kind of dependency; `probe` carries the round the good file is for. */
function good(round: number): Json {
  return {
    network: { bind_address: "localhost:0" },
    components: [
      { name: "probe", api: "rdk:component:sensor", model: "fake", attributes: { readings: { round } } },
      { name: "board", api: "rdk:component:board", model: "fake", attributes: { pins: { led: "12" } } },
      { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 100 }, depends_on: ["board"] },
      { name: "temp", type: "sensor", model: "fake", attributes: { readings: { celsius: 20 } }, depends_on: ["wheel"] },
      { name: "thing", api: "rdk:component:generic", model: "fake" },
    ],
    services: [{ name: "helper", api: "rdk:service:generic", model: "fake" }],
  };
}

// The end of every load, as the log says it: applied, refused, deferred, failed, or the file unreadable.
const LOAD_ENDS = [
  '"msg":"configuration applied"',
  '"msg":"configuration refused; the machine keeps running as it was"',
  '"msg":"configuration deferred until the maintenance window allows it"',
  '"msg":"applying the configuration failed; the machine keeps running as it was"',
  '"msg":"cannot read the configuration file; the machine keeps running as it is"',
];

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
beforeAll(async () => {
  server = await startSvcServer(good(0) as Record<string, unknown>);
  robot = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

/** Counts load ends in the log, reading only what was written since the last look. */
function createLoadCounter(read: () => string) {
  let offset = 0;
  let partial = "";
  let count = 0;
  return () => {
    const text = read();
    const fresh = partial + text.slice(offset);
    offset = text.length;
    const lines = fresh.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (LOAD_ENDS.some((end) => line.includes(end))) count++;
    return count;
  };
}

describe("svc-server under a fuzz of live configurations", () => {
  it("takes every damaged file without wedging: the next good file applies and the SDK answers", async () => {
    const loads = createLoadCounter(() => server.stdout());
    const probe = new VIAM.SensorClient(robot, "probe");
    let round = 0;
    const result = await fc.check(
      fc.asyncProperty(liveEdit, async (edit) => {
        round++;
        const before = loads();
        writeFileSync(server.configFile, applyLiveEdit(good(-round), edit));
        await eventually(() => (loads() > before ? true : undefined), `round ${round}: the damaged file taken`);

        writeFileSync(server.configFile, JSON.stringify(good(round)));
        await eventually(async () => ((await probe.getReadings()).round === round ? true : undefined), `round ${round}: the good file applied`);
        expect(server.child.exitCode).toBeNull();
      }),
      { seed: SEED, numRuns: ROUNDS, interruptAfterTimeLimit: BUDGET_MS, markInterruptAsFailure: false, endOnFailure: true },
    );
    if (result.failed) throw new Error(`${fc.defaultReportMessage(result)}\nlast stderr:\n${server.stderr().slice(-2000)}`);
    expect(round).toBeGreaterThan(10);
    expect(server.stdout()).not.toContain("Maximum call stack");
    const status = await robot.getMachineStatus();
    expect(status.resources.every((r) => r.state === VIAM.robotApi.ResourceStatus_State.READY)).toBe(true);
  }, 90_000);
});
