// The fake vision service (rdk:builtin:fake), after Viam's: whatever the image, one detection,
// "a_detection" with confidence 0.92, boxing the middle half of the image (a quarter of its
// width and height in from each side), and one classification, "a_classification" with
// confidence 0.85. It needs the image's size: the request's, or its PNG or JPEG header's.
// `default_camera` names the camera the *FromCamera calls use when they name none.
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { FAKE_MODEL, failOnIssues, readAttributes, VISION_API } from "../../components/index.js";
import { imageSize } from "./image-size.js";
import type { Classification, Detection, VisionImage, VisionService } from "./vision.js";

export const FAKE_DETECTION = { className: "a_detection", confidence: 0.92 };
export const FAKE_CLASSIFICATION: Classification = { className: "a_classification", confidence: 0.85 };

function sizeOf(image: VisionImage): { width: number; height: number } {
  if (image.width !== undefined && image.height !== undefined && image.width > 0 && image.height > 0) return { width: image.width, height: image.height };
  const size = imageSize(image.image);
  if (size === undefined) throw new SvcError(Code.InvalidArgument, "image: its size is unknown: give width and height, or a PNG or JPEG image");
  return size;
}

/** The fake's one detection in an image of that size. */
export function fakeDetection(width: number, height: number): Detection {
  const box = { xMin: Math.floor(width * 0.25), yMin: Math.floor(height * 0.25), xMax: Math.floor(width * 0.75), yMax: Math.floor(height * 0.75) };
  const normalized = { xMin: box.xMin / width, yMin: box.yMin / height, xMax: box.xMax / width, yMax: box.yMax / height };
  return { ...box, normalized, ...FAKE_DETECTION };
}

function readDefaultCamera(attributes: Record<string, unknown> | undefined, path: string) {
  const a = readAttributes(attributes, path);
  return { defaultCamera: a.string("default_camera"), issues: a.issues };
}

export const fakeVisionModel: ModelRegistration<VisionService> = {
  api: VISION_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: { default_camera: { type: "string", minLength: 1, description: "the camera's name the *FromCamera calls use when they name none" } },
  },
  validate(config, path) {
    return { issues: readDefaultCamera(config.attributes, path).issues };
  },
  async build(ctx) {
    const { defaultCamera, issues } = readDefaultCamera(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    return {
      name: ctx.name,
      ...(defaultCamera === undefined ? {} : { defaultCamera }),
      async properties() {
        return { classificationsSupported: true, detectionsSupported: true, objectPointCloudsSupported: false };
      },
      async detections(image) {
        const { width, height } = sizeOf(image);
        return [fakeDetection(width, height)];
      },
      async classifications(image) {
        // Its one classification is the top one whatever `n` asks for.
        sizeOf(image);
        return [{ ...FAKE_CLASSIFICATION }];
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
