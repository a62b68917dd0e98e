// The camera API on the real svc-server, through the official SDK's CameraClient: GetImages gives
// the fake camera's PNG, which decodes (signature, every chunk's CRC, the inflated pixels) to
// the configured size with the colour bars where they belong; GetProperties states the size and
// the MIME type; ResourceRPCSubtypes lists the camera's service; an unknown camera is NOT_FOUND
// and a point cloud UNIMPLEMENTED, naming the camera.
import { crc32, inflateSync } from "node:zlib";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

interface DecodedPng {
  width: number;
  height: number;
  /** RGB, three bytes a pixel, row by row. */
  pixels: Uint8Array;
}

// A decoder for what a fake camera writes (8-bit RGB, unfiltered rows), checking everything a
// viewer would check before showing it.
function decodePng(bytes: Uint8Array): DecodedPng {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect(Array.from(bytes.subarray(0, 8))).toEqual(signature);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Array<{ type: string; data: Uint8Array }> = [];
  for (let at = 8; at < bytes.length; ) {
    const length = view.getUint32(at);
    const typeAndData = bytes.subarray(at + 4, at + 8 + length);
    expect(view.getUint32(at + 8 + length), "chunk CRC").toBe(crc32(typeAndData));
    chunks.push({ type: Buffer.from(typeAndData.subarray(0, 4)).toString("latin1"), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
  const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset, 13);
  const width = header.getUint32(0);
  const height = header.getUint32(4);
  expect([header.getUint8(8), header.getUint8(9)], "8-bit RGB").toEqual([8, 2]);
  const raw = inflateSync(chunks[1]!.data);
  expect(raw.length).toBe(height * (width * 3 + 1));
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 3 + 1)], "row filter").toBe(0);
    pixels.set(raw.subarray(y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1)), y * width * 3);
  }
  return { width, height, pixels };
}

const pixel = (png: DecodedPng, x: number, y: number) => Array.from(png.pixels.subarray((y * png.width + x) * 3, (y * png.width + x) * 3 + 3));

describe("a camera through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;

  beforeAll(async () => {
    server = await startSvcServer({
      components: [{ name: "cam", api: "rdk:component:camera", model: "rdk:builtin:fake", attributes: { width: 64, height: 48 } }],
    });
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("gives the fake camera's image as a PNG of the configured size, colour bars and all", async () => {
    const before = Date.now();
    const { images, metadata } = await new VIAM.CameraClient(robot, "cam").getImages();
    expect(images.map((i) => [i.sourceName, i.mimeType])).toEqual([["color", "image/png"]]);
    const png = decodePng(images[0]!.image);
    expect([png.width, png.height]).toEqual([64, 48]);
    // Bars left to right: white, yellow, cyan, green, magenta, red, blue, black; a grey ramp below.
    expect([0, 8, 16, 24, 32, 40, 48, 56].map((x) => pixel(png, x + 4, 10))).toEqual([
      [255, 255, 255],
      [255, 255, 0],
      [0, 255, 255],
      [0, 255, 0],
      [255, 0, 255],
      [255, 0, 0],
      [0, 0, 255],
      [0, 0, 0],
    ]);
    expect([pixel(png, 0, 47), pixel(png, 63, 47)]).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
    const capturedAt = metadata.capturedAt?.toDate().getTime() ?? 0;
    expect(capturedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it("gives only the sources asked for", async () => {
    const { images } = await new VIAM.CameraClient(robot, "cam").getImages(["depth"]);
    expect(images).toEqual([]);
  });

  it("states its size and MIME type in its properties", async () => {
    const properties = await new VIAM.CameraClient(robot, "cam").getProperties();
    expect(properties.supportsPcd).toBe(false);
    expect(properties.mimeTypes).toEqual(["image/png"]);
    expect([properties.intrinsicParameters?.widthPx, properties.intrinsicParameters?.heightPx]).toEqual([64, 48]);
  });

  it("is listed in ResourceRPCSubtypes with its service", async () => {
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      "rdk:component:camera viam.component.camera.v1.CameraService",
    );
  });

  it("answers NOT_FOUND for a camera not configured and UNIMPLEMENTED for a point cloud, naming the camera", async () => {
    // The SDK's errors carry the gRPC code: NOT_FOUND is 5, UNIMPLEMENTED 12.
    await expect(new VIAM.CameraClient(robot, "nope").getImages()).rejects.toMatchObject({ code: 5 });
    const pointCloud = new VIAM.CameraClient(robot, "cam").getPointCloud();
    await expect(pointCloud).rejects.toMatchObject({ code: 12, message: expect.stringContaining("rdk:component:camera/cam does not support GetPointCloud") });
  });
});
