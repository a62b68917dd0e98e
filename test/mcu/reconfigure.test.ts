// A new configuration pushed into the running XS worker is applied in place: resources added,
// changed and removed, the same worker process throughout, what did not change left running.
// Broken edits are refused whole, log rules apply at once, and the maintenance window defers a
// change as on the server.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcuShim, type McuLogEntry, type McuShim } from "../../tools/mcu-shim/mcu-shim.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";

const sensor = (name: string, readings: Record<string, unknown>) => ({ name, api: "rdk:component:sensor", model: "fake", attributes: { readings } });
const board = { name: "pins", api: "rdk:component:board", model: "fake", attributes: {} };
const motor = { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } };

const first = { components: [sensor("temp", { celsius: 20 }), board, motor] };
const second = { components: [sensor("temp", { celsius: 25 }), board, sensor("humid", { percent: 40 })] };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let shim: McuShim;
let robot: VIAM.RobotClient;
const logs: McuLogEntry[] = [];

beforeAll(async () => {
  shim = await startMcuShim({ config: first, onLog: (entry) => logs.push(entry) });
  robot = await dialSdk(shim.sdkHost);
});

afterAll(async () => {
  await robot?.disconnect();
  await shim?.close();
});

const names = async () => (await robot.resourceNames()).map(fullName).sort();

describe("reconfiguring the core in XS in place", () => {
  it("adds, changes and removes resources in the same worker, keeping the unchanged board's pins", async () => {
    const pid = shim.workerPid;
    const pins = new VIAM.BoardClient(robot, "pins");
    await pins.setGPIO("7", true);

    const report = await shim.pushConfig(second);
    expect(report).toMatchObject({
      outcome: "applied",
      added: ["rdk:component:sensor/humid"],
      modified: ["rdk:component:sensor/temp"],
      removed: ["rdk:component:motor/wheel"],
    });
    expect(shim.workerPid).toBe(pid);
    expect(alive(pid)).toBe(true);

    expect(await names()).toEqual(["rdk:component:board/pins", "rdk:component:sensor/humid", "rdk:component:sensor/temp"]);
    expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 25 });
    expect(await new VIAM.SensorClient(robot, "humid").getReadings()).toEqual({ percent: 40 });
    expect(await new VIAM.MotorClient(robot, "wheel").isMoving().catch((e: unknown) => e)).toMatchObject({ code: VIAM.Code.NotFound });
    // The board was not rebuilt: the level set before the change is still there.
    expect(await pins.getGPIO("7")).toBe(true);
    expect(logs.map((e) => e.message)).toContain('config change: components["temp"].attributes.readings.celsius: 20 -> 25');
  });

  it("answers the same text as unchanged, and refuses a broken edit whole, still running as it was", async () => {
    expect(await shim.pushConfig(second)).toMatchObject({ outcome: "unchanged" });
    const broken = { components: [...second.components, { name: "bad name!", api: "rdk:component:sensor", model: "fake" }] };
    const refused = await shim.pushConfig(broken);
    expect(refused.outcome).toBe("refused");
    expect(refused.reason).toMatch(/components\[3\]/);
    expect(await names()).toEqual(["rdk:component:board/pins", "rdk:component:sensor/humid", "rdk:component:sensor/temp"]);
    expect(await shim.pushConfig("not json")).toMatchObject({ outcome: "refused" });
  });

  it("applies log rules from the new configuration at once", async () => {
    const quiet = { ...second, log: [{ pattern: "svc.config", level: "error" }] };
    // The change that brings the rule is still told at info, before the rule applies.
    expect(await shim.pushConfig(quiet)).toMatchObject({ outcome: "applied" });
    logs.length = 0;
    expect(await shim.pushConfig({ ...quiet, components: [...quiet.components, sensor("extra", { x: 1 })] })).toMatchObject({ outcome: "applied" });
    expect(logs.filter((e) => e.logger === "svc.config" && e.level === "info")).toEqual([]);

    const loud = { ...second, log: [{ pattern: "svc.config", level: "info" }] };
    expect(await shim.pushConfig(loud)).toMatchObject({ outcome: "applied" });
    expect(logs.some((e) => e.logger === "svc.config" && e.message === "configuration applied")).toBe(true);
  });

  it("defers a change while the maintenance sensor says no", async () => {
    const gated = {
      components: [...second.components, sensor("gate", { allowed: false })],
      maintenance: { sensor_name: "rdk:component:sensor/gate", maintenance_allowed_key: "allowed" },
    };
    // Adding the gate itself goes through: no gate was running when it arrived.
    expect(await shim.pushConfig(gated)).toMatchObject({ outcome: "applied" });
    const report = await shim.pushConfig({ ...gated, components: [...gated.components, sensor("late", { y: 2 })] });
    expect(report.outcome).toBe("deferred");
    expect(report.reason).toContain("allowed = false");
    expect(await names()).not.toContain("rdk:component:sensor/late");
    const status = await robot.getMachineStatus();
    expect(status.resources.map((r) => fullName(r.name!))).not.toContain("rdk:component:sensor/late");
  });
});
