// The built-in models' per-call cost, which every API call pays on top of the transport: a fake
// sensor's readings, a motor's position and state, a board's GPIO and PWM on the simulated
// board, and a GPIO motor's power change reaching the pins.
import type { Board, Motor, Sensor } from "../../core/components/index.js";
import { registerBuiltinModels } from "../../core/components/index.js";
import type { ResourceConfig } from "../../core/config/index.js";
import { createManualClock } from "../../core/index.js";
import { createModelRegistry, parseApi, silentLogger, type Resource } from "../../core/resource/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { report } from "./report.js";

const clock = createManualClock(0);
const sim = createSimBoard();
const registry = createModelRegistry();
registerBuiltinModels(registry, { ioForBoard: () => sim.io });
const built = new Map<string, Resource>();

async function make<R extends Resource>(api: string, model: string, name: string, attributes: Record<string, unknown>): Promise<R> {
  const config: ResourceConfig = { name, api, model, attributes, depends_on: [] };
  const parsed = parseApi(api);
  if (!parsed.ok) throw new Error(parsed.error);
  const resource = await registry.lookup(api, model)!.build({
    name: { ...parsed.value, name },
    config,
    dependencies: { get: (n) => built.get(n), names: () => [] },
    logger: silentLogger,
    clock,
    cancelled: () => false,
  });
  built.set(name, resource);
  return resource as R;
}

/** Awaited calls per second of `fn`, over about `ms` milliseconds after a warm-up. */
async function callsPerSecond(fn: () => Promise<unknown>, ms = 800): Promise<number> {
  const warmUntil = performance.now() + ms / 4;
  while (performance.now() < warmUntil) await fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) await fn();
    calls += 200;
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
}

const ns = (perSecond: number) => 1e9 / perSecond;

const sensor = await make<Sensor>("rdk:component:sensor", "rdk:builtin:fake", "s", {
  readings: { temperature_c: 21.5, humidity: 0.41, door: "closed", battery_volts: 3.7 },
});
report("components fake sensor GetReadings", ns(await callsPerSecond(() => sensor.getReadings())), "ns/call", "under 2000");

const motor = await make<Motor>("rdk:component:motor", "rdk:builtin:fake", "m", {});
await motor.setPower(0.5);
report("components fake motor GetPosition", ns(await callsPerSecond(() => motor.getPosition())), "ns/call", "under 1000");
report("components fake motor IsMoving", ns(await callsPerSecond(() => motor.isMoving())), "ns/call", "under 1000");

const board = await make<Board>("rdk:component:board", "rdk:builtin:fake", "b", {});
let level = false;
report(
  "components fake board SetGPIO on the sim board",
  ns(await callsPerSecond(() => board.setGPIO("3", (level = !level)))),
  "ns/call",
  "under 2000",
);
let duty = 0;
report(
  "components fake board SetPWM on the sim board",
  ns(await callsPerSecond(() => board.setPWM("4", (duty = (duty + 0.01) % 1)))),
  "ns/call",
  "under 2000",
);

const gpio = await make<Motor>("rdk:component:motor", "rdk:builtin:gpio", "g", { board: "b", pins: { pwm: "12", dir: "13" } });
let power = 0;
report(
  "components gpio motor SetPower to the sim pins",
  ns(await callsPerSecond(() => gpio.setPower((power = power > 0 ? -0.5 : 0.5)))),
  "ns/call",
  "under 3000",
);

for (const resource of Array.from(built.values()).reverse()) await resource.close();
