// The vision service on the real svc-server, through the official SDK's VisionClient: the fake
// answers one detection boxing the middle half of the image and one classification, whether the
// image comes from the client (its size given, or read from its PNG or JPEG header) or from one of
// the machine's cameras, named or the service's default camera. CaptureAllFromCamera brings the
// camera's image with them. A camera or service not configured is NOT_FOUND; an image whose size
// cannot be told, or no camera to use, INVALID_ARGUMENT; object point clouds UNIMPLEMENTED.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const VISION = "rdk:service:vision";

/** A PNG's signature and IHDR chunk: all the size reader needs. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

/** A JPEG's start, an APP0 segment and a baseline frame header. */
function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const frame = [0xff, 0xc0, 0, 11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...frame]);
}

const box = (d: VIAM.visionApi.Detection) => [d.xMin, d.yMin, d.xMax, d.yMax].map(Number);
const normalized = (d: VIAM.visionApi.Detection) => [d.xMinNormalized, d.yMinNormalized, d.xMaxNormalized, d.yMaxNormalized];

describe("a vision service through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  const vision = (name = "vis") => new VIAM.VisionClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer({
      components: [{ name: "cam", api: "rdk:component:camera", model: "fake", attributes: { width: 64, height: 48 } }],
      services: [
        { name: "vis", api: VISION, model: "fake", attributes: { default_camera: "cam" } },
        { name: "plain", type: "vision", model: "fake" },
      ],
    });
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${VISION}/vis`]: "READY", [`${VISION}/plain`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(`${VISION} viam.service.vision.v1.VisionService`);
  });

  it("says it detects and classifies but segments no point clouds", async () => {
    expect(await vision().getProperties()).toEqual({ classificationsSupported: true, detectionsSupported: true, objectPointCloudsSupported: false });
  });

  it("detects the middle half of a camera's image, in pixels and normalized", async () => {
    for (const detections of [await vision().getDetectionsFromCamera("cam"), await vision("plain").getDetectionsFromCamera("rdk:component:camera/cam")]) {
      expect(detections).toHaveLength(1);
      const [d] = detections;
      expect([d!.className, d!.confidence]).toEqual(["a_detection", 0.92]);
      expect(box(d!)).toEqual([16, 12, 48, 36]);
      expect(normalized(d!)).toEqual([0.25, 0.25, 0.75, 0.75]);
    }
  });

  it("detects in an image the client sends, its size given or read from its header", async () => {
    const { images } = await new VIAM.CameraClient(robot, "cam").getImages();
    const png = images[0]!.image;
    expect(box((await vision().getDetections(png, 64, 48, "image/png"))[0]!)).toEqual([16, 12, 48, 36]);
    expect(box((await vision().getDetections(png, 0, 0, "image/png"))[0]!)).toEqual([16, 12, 48, 36]);
    expect(box((await vision().getDetections(pngHeader(200, 101), 0, 0, "image/png"))[0]!)).toEqual([50, 25, 150, 75]);
    const jpeg = (await vision().getDetections(jpegHeader(640, 480), 0, 0, "image/jpeg"))[0]!;
    expect([box(jpeg), normalized(jpeg)]).toEqual([
      [160, 120, 480, 360],
      [0.25, 0.25, 0.75, 0.75],
    ]);
    await expect(vision().getDetections(new Uint8Array([1, 2, 3]), 0, 0, "image/png")).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining("image: its size is unknown: give width and height, or a PNG or JPEG image"),
    });
    await expect(vision().getDetections(new Uint8Array(), 10, 10, "image/png")).rejects.toMatchObject({ code: 3, message: expect.stringContaining("image: required") });
  });

  it("classifies a camera's image and an image the client sends", async () => {
    expect(await vision().getClassificationsFromCamera("cam", 1)).toEqual([expect.objectContaining({ className: "a_classification", confidence: 0.85 })]);
    expect(await vision().getClassificationsFromCamera("", 0)).toEqual([expect.objectContaining({ className: "a_classification", confidence: 0.85 })]);
    const classes = await vision().getClassifications(jpegHeader(8, 8), 0, 0, "image/jpeg", 3);
    expect(classes.map((c) => [c.className, c.confidence])).toEqual([["a_classification", 0.85]]);
  });

  it("captures a camera's image with its detections and classifications, as asked", async () => {
    const all = await vision().captureAllFromCamera("cam", { returnImage: true, returnDetections: true, returnClassifications: true, returnObjectPointClouds: true });
    expect([all.image?.sourceName, all.image?.mimeType, all.image?.image.subarray(1, 4)]).toEqual(["cam", "image/png", new TextEncoder().encode("PNG")]);
    expect(all.detections.map(box)).toEqual([[16, 12, 48, 36]]);
    expect(all.classifications.map((c) => c.className)).toEqual(["a_classification"]);
    expect(all.objectPointClouds).toEqual([]);
    const some = await vision().captureAllFromCamera("", { returnImage: false, returnDetections: true, returnClassifications: false, returnObjectPointClouds: false });
    expect([some.image, some.detections.length, some.classifications.length]).toEqual([undefined, 1, 0]);
  });

  it("answers NOT_FOUND for a camera or a service not configured, INVALID_ARGUMENT with no camera to use", async () => {
    await expect(vision().getDetectionsFromCamera("ghost")).rejects.toMatchObject({ code: 5, message: expect.stringContaining('no rdk:component:camera named "ghost"') });
    await expect(vision("nope").getProperties()).rejects.toMatchObject({ code: 5 });
    await expect(vision("plain").getDetectionsFromCamera("")).rejects.toMatchObject({
      code: 3,
      message: expect.stringContaining(`camera_name: required, since ${VISION}/plain has no default camera`),
    });
    await expect(vision().getDetectionsFromCamera("rdk:component:motor/cam")).rejects.toMatchObject({ code: 3 });
  });

  it("answers UNIMPLEMENTED for object point clouds, naming itself, and echoes DoCommand", async () => {
    await expect(vision().getObjectPointClouds("cam")).rejects.toMatchObject({ code: 12, message: expect.stringContaining(`${VISION}/vis does not support GetObjectPointClouds`) });
    expect(await vision().doCommand(VIAM.Struct.fromJson({ look: "here" }))).toEqual({ look: "here" });
  });
});
