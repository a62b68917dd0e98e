// A gpio motor's pins as a client of the real svc-server sees them through the board: the board
// reports the duty, frequency and levels the motor drives on them, and refuses to drive them itself.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "pins", api: "rdk:component:board", model: "fake" },
    { name: "drive", api: "rdk:component:motor", model: "gpio", attributes: { board: "pins", pins: { pwm: "12", dir: "16" }, pwm_freq: 1000 } },
    { name: "bridge", api: "rdk:component:motor", model: "gpio", attributes: { board: "pins", pins: { a: "5", b: "6" } } },
  ],
};

let server: SvcServerProcess;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  server = await startSvcServer(config);
  robot = await dialSdk(server.sdkHost);
});

afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

describe("the board of a running gpio motor", () => {
  it("reports the PWM duty and frequency and the direction level the motor drives", async () => {
    const board = new VIAM.BoardClient(robot, "pins");
    const drive = new VIAM.MotorClient(robot, "drive");
    await drive.setPower(0.5);
    expect(await board.getPWM("12")).toBeCloseTo(0.5, 2);
    expect(await board.getPWMFrequency("12")).toBe(1000);
    expect(await board.getGPIO("16")).toBe(true);
    expect(await board.getGPIO("12")).toBe(true);

    await drive.setPower(-0.25);
    expect(await board.getPWM("12")).toBeCloseTo(0.25, 2);
    expect(await board.getGPIO("16")).toBe(false);

    await drive.stop();
    expect(await board.getPWM("12")).toBe(0);
    expect(await board.getPWMFrequency("12")).toBe(1000);
    expect(await board.getGPIO("12")).toBe(false);
  });

  it("reports an H-bridge's PWM on the input of the direction of travel, at the default frequency", async () => {
    const board = new VIAM.BoardClient(robot, "pins");
    const bridge = new VIAM.MotorClient(robot, "bridge");
    await bridge.setPower(-0.75);
    expect(await board.getPWM("5")).toBe(0);
    expect(await board.getPWM("6")).toBeCloseTo(0.75, 2);
    expect(await board.getPWMFrequency("6")).toBe(800);
    await bridge.stop();
  });

  it("still refuses to drive the motor's pins itself", async () => {
    const board = new VIAM.BoardClient(robot, "pins");
    await expect(board.setPWM("12", 0.1)).rejects.toThrow(/pin 12 of board pins is busy/);
    await expect(board.setPWMFrequency("12", 50)).rejects.toThrow(/pin 12 of board pins is busy/);
    await expect(board.setGPIO("16", false)).rejects.toThrow(/pin 16 of board pins is busy/);
  });
});
