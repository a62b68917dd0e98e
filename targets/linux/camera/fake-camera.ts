// The fake camera (rdk:builtin:fake): one source, "color", whose image is a PNG of colour bars
// `width` x `height` pixels (320 x 240 unless set), encoded once when the camera is built. Its
// properties state the size and a pinhole model centred on the image.
import { CAMERA_API, FAKE_MODEL, failOnIssues, formatResourceName, readAttributes, type AttributeReader, type ModelRegistration } from "../../../core/index.js";
import type { Camera, CameraProperties } from "./camera.js";
import { encodePng } from "./png.js";
import { colourBars } from "./test-pattern.js";

const SOURCE = "color";
const MIME_PNG = "image/png";
const MAX_SIDE = 4096;

function size(a: AttributeReader): { width: number; height: number } {
  const side = { integer: true, min: 1, max: MAX_SIDE };
  return { width: a.number("width", { ...side, default: 320 }) ?? 320, height: a.number("height", { ...side, default: 240 }) ?? 240 };
}

export const fakeCameraModel: ModelRegistration<Camera> = {
  api: CAMERA_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      width: { type: "integer", description: "the image's width in pixels", default: 320, minimum: 1, maximum: MAX_SIDE },
      height: { type: "integer", description: "the image's height in pixels", default: 240, minimum: 1, maximum: MAX_SIDE },
    },
  },
  validate(config, path) {
    const a = readAttributes(config.attributes, path);
    size(a);
    return { issues: a.issues };
  },
  async build(ctx) {
    const a = readAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    const { width, height } = size(a);
    failOnIssues(a.issues);
    const image = encodePng(width, height, colourBars(width, height));
    const properties: CameraProperties = {
      supportsPcd: false,
      mimeTypes: [MIME_PNG],
      intrinsics: { widthPx: width, heightPx: height, focalXPx: width, focalYPx: width, centerXPx: width / 2, centerYPx: height / 2 },
    };
    return {
      name: ctx.name,
      async getImages(sourceNames) {
        const wanted = sourceNames.length === 0 || sourceNames.includes(SOURCE);
        return { images: wanted ? [{ sourceName: SOURCE, mimeType: MIME_PNG, image }] : [], capturedAt: ctx.clock.now() };
      },
      async getProperties() {
        return { ...properties, mimeTypes: [...properties.mimeTypes] };
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
