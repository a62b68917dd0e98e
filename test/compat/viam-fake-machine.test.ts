// A configuration written for viam-server runs on svc unchanged. The machine is the shape of
// Viam's own fake-hardware configuration, key for key (its components, processes, navigation
// with obstacles, SLAM and data manager), with the rest of Viam's keys svc-server acts on or
// reports: frames, `${NAME}` references (one bare, in a number's place), a local module, a
// vision service, global_log_configuration, disable_partial_start, network.fqdn and sessions,
// and packages, jobs, tracing and service_configs that it does not act on. `-validate` accepts
// it, the running server builds every resource to READY, and every API is driven through the
// official SDK's own client.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { exampleCounter } from "../helpers/module-fixtures.js";
import { runCli } from "../helpers/run-cli.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const fixture = join(import.meta.dirname, "..", "fixtures", "viam-format", "compat-machine.json");
const env = { SVC_BIND: "localhost:0", ENCODER_RATE_MS: "200", COUNTER_MODULE: exampleCounter };
const { READY } = VIAM.robotApi.ResourceStatus_State;

const components = [
  "arm/arm1", "audio_in/audio_in1", "audio_out/audio_out1", "base/base1", "board/board1", "camera/camera1", "encoder/encoder1", "gantry/gantry1",
  "generic/generic1", "gripper/gripper1", "input_controller/input_controller1", "motor/motor1",
  "movement_sensor/movement_sensor1", "sensor/sensor1", "servo/servo1", "sensor/counter1",
].map((name) => `rdk:component:${name}`);
const services = ["navigation/test_navigation", "slam/slam1", "data_manager/dm", "vision/vision1", "motion/builtin"].map((name) => `rdk:service:${name}`);

let server: SvcServerProcess;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  server = await startSvcServer({}, { configText: readFileSync(fixture, "utf8"), env, startTimeoutMs: 40_000 });
  robot = await dialSdk(server.sdkHost);
  await eventually(async () => {
    const status = await robot.getMachineStatus();
    const ready = new Set(status.resources.filter((r) => r.state === READY).map((r) => fullName(r.name!)));
    return [...components, ...services].every((name) => ready.has(name)) ? true : undefined;
  }, "every resource READY", { timeoutMs: 30_000 });
}, 90_000);

afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

describe("Viam's fake-hardware configuration", () => {
  it("passes -validate, with a warning for each key svc-server does not act on and for the module's model", () => {
    const { code, stdout, stderr } = runCli("svc-server", ["-validate", "-config", fixture], { env });
    const lines = `${stdout}${stderr}`.trim().split("\n");
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe(`${fixture}: 0 error(s), 4 warning(s)`);
    expect(lines.filter((l) => l.includes("is not acted on"))).toHaveLength(3);
  });

  it("builds every resource to READY", async () => {
    const status = await robot.getMachineStatus();
    const notReady = status.resources.filter((r) => r.state !== READY).map((r) => `${fullName(r.name!)}: ${r.error}`);
    expect(notReady).toEqual([]);
    const names = (await robot.resourceNames()).map(fullName);
    for (const name of [...components, ...services]) expect(names).toContain(name);
  });

  it("runs its processes, the one-shot once and the long-running one on, each logged under its id", async () => {
    await eventually(() => logLines(server.stdout()).find((l) => l.logger === "process.1" && l.msg === "hello world"), "the echo's line");
    await eventually(() => logLines(server.stdout()).find((l) => l.logger === "process.2" && l.msg === "hey"), "the loop's line");
  });

  it("answers the arm, gripper and gantry clients", async () => {
    const arm = new VIAM.ArmClient(robot, "arm1");
    await arm.moveToJointPositions([10, 0, 0, 0, 0, 0]);
    expect((await arm.getJointPositions()).values).toEqual([10, 0, 0, 0, 0, 0]);
    expect(await arm.isMoving()).toBe(false);
    const gripper = new VIAM.GripperClient(robot, "gripper1");
    await gripper.grab();
    await gripper.open();
    expect(await gripper.isMoving()).toBe(false);
    const gantry = new VIAM.GantryClient(robot, "gantry1");
    const lengths = await gantry.getLengths();
    expect(lengths.length).toBe(1);
    await gantry.moveToPosition([lengths[0]! / 4], [0]);
    expect(await gantry.getPosition()).toEqual([lengths[0]! / 4]);
  });

  it("answers the base, camera and input controller clients", async () => {
    const base = new VIAM.BaseClient(robot, "base1");
    await base.moveStraight(10, 1000);
    expect(await base.isMoving()).toBe(false);
    expect((await base.getProperties()).widthMeters).toBeGreaterThan(0);
    const { images } = await new VIAM.CameraClient(robot, "camera1").getImages();
    expect(images.length).toBeGreaterThan(0);
    const pad = new VIAM.InputControllerClient(robot, "input_controller1");
    await pad.triggerEvent(new VIAM.InputControllerEvent({ event: "ButtonPress", control: "ButtonStart", value: 1 }));
    const events = await pad.getEvents();
    expect(events.some((e) => e.control === "ButtonStart" && e.event === "ButtonPress")).toBe(true);
  });

  it("answers the audio in and audio out clients: what the one records, the other plays", async () => {
    const chunks: VIAM.AudioChunk[] = [];
    for await (const chunk of new VIAM.AudioInClient(robot, "audio_in1").getAudio(VIAM.AudioCodec.PCM16, 0.2)) chunks.push(chunk);
    expect(chunks.map((c) => [c.sequence, c.audioInfo?.codec, c.audioInfo?.sampleRateHz, c.audioData.byteLength])).toEqual([
      [0, "pcm16", 44100, 8820],
      [1, "pcm16", 44100, 8820],
    ]);
    const speaker = new VIAM.AudioOutClient(robot, "audio_out1");
    expect((await speaker.getProperties()).supportedCodecs).toEqual(["pcm16"]);
    for (const chunk of chunks) await speaker.play(chunk.audioData, chunk.audioInfo);
    const { played } = (await speaker.doCommand(VIAM.Struct.fromJson({ command: "played" }))) as { played: Array<{ frames: number; peak: number }> };
    expect(played.map((p) => p.frames)).toEqual([4410, 4410]);
    expect(played.every((p) => p.peak > 0)).toBe(true);
  });

  it("answers the navigation, SLAM, vision and data manager clients", async () => {
    const nav = new VIAM.NavigationClient(robot, "test_navigation");
    await nav.addWayPoint({ latitude: 40.7, longitude: -73.9 });
    expect((await nav.getWayPoints()).map((w) => w.location?.latitude)).toEqual([40.7]);
    expect((await nav.getObstacles()).length).toBe(3);
    const slam = new VIAM.SlamClient(robot, "slam1");
    expect((await slam.getPointCloudMap()).length).toBeGreaterThan(0);
    expect((await slam.getPosition()).pose).toBeDefined();
    const vision = new VIAM.VisionClient(robot, "vision1");
    const detections = await vision.getDetectionsFromCamera("camera1");
    expect(detections.map((d) => d.className)).toEqual(["a_detection"]);
    await new VIAM.DataManagerClient(robot, "dm").sync();
  });

  it("answers the motion service's GetPose through the frame system", async () => {
    const motion = new VIAM.MotionClient(robot, "builtin");
    const { pose, referenceFrame } = await motion.getPose("arm1", "world", []);
    expect(referenceFrame).toBe("world");
    expect([pose?.x, pose?.y, pose?.z]).toEqual([500, 0, 100]);
  });

  it("answers the frame system: the camera on the arm on the base", async () => {
    const frames = await robot.frameSystemConfig([]);
    const parents = new Map(frames.map((f) => [f.frame?.referenceFrame, f.frame?.poseInObserverFrame?.referenceFrame]));
    expect(parents.get("camera1")).toBe("arm1");
    expect(parents.get("arm1")).toBe("base1");
    expect(parents.get("base1")).toBe("world");
  });
});
