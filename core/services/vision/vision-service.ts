// viam.service.vision.v1.VisionService: detections and classifications of an image the client
// sends or of the next image of one of the machine's cameras, named in `camera_name` (or the
// service's default camera) and resolved like any resource: a camera not configured is
// NOT_FOUND, one not ready UNAVAILABLE. CaptureAllFromCamera gives the image with what is asked
// for and the model gives. A model without detections, classifications or object point clouds
// answers UNIMPLEMENTED for them, naming itself.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Format } from "../../../proto/gen/component/camera/v1/camera_pb.js";
import type { DetectionSchema, VisionService as VisionServiceDesc } from "../../../proto/gen/service/vision/v1/vision_pb.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName } from "../../resource/index.js";
import { doCommandMethod, resolveResource, type ResourceLookup, type ServiceHandlers } from "../../rpc/index.js";
import { CAMERA_API, VISION_API, type Extra } from "../../components/index.js";
import type { Detection, ImageSource, VisionImage, VisionService } from "./vision.js";

const formats: Record<string, Format> = { "image/png": Format.PNG, "image/jpeg": Format.JPEG };

function wireDetection(d: Detection): MessageInitShape<typeof DetectionSchema> {
  const box = { xMin: BigInt(Math.round(d.xMin)), yMin: BigInt(Math.round(d.yMin)), xMax: BigInt(Math.round(d.xMax)), yMax: BigInt(Math.round(d.yMax)) };
  const n = d.normalized;
  const normalized = n === undefined ? {} : { xMinNormalized: n.xMin, yMinNormalized: n.yMin, xMaxNormalized: n.xMax, yMaxNormalized: n.yMax };
  return { ...box, ...normalized, confidence: d.confidence, className: d.className };
}

/** The image a request carries; its size where the client gave one. */
function sentImage(image: Uint8Array, mimeType: string, width: bigint | number, height: bigint | number): VisionImage {
  if (image.length === 0) throw new SvcError(Code.InvalidArgument, "image: required");
  const w = Number(width);
  const h = Number(height);
  return w > 0 && h > 0 ? { image, mimeType, width: w, height: h } : { image, mimeType };
}

export function createVisionService(lookup: ResourceLookup): ServiceHandlers<typeof VisionServiceDesc> {
  const service = (name: string, method: keyof VisionService & string, rpc: string) => resolveResource<VisionService>(lookup, VISION_API, name, method, rpc);
  const detector = (name: string, rpc: string) => service(name, "detections", rpc) as VisionService & Required<Pick<VisionService, "detections">>;
  const classifier = (name: string, rpc: string) => service(name, "classifications", rpc) as VisionService & Required<Pick<VisionService, "classifications">>;

  /** The next image of the camera named, or of the service's default camera. */
  async function cameraImage(vision: VisionService, cameraName: string, extra: Extra | undefined): Promise<VisionImage & { cameraName: string }> {
    const named = cameraName !== "" ? cameraName : vision.defaultCamera;
    if (named === undefined) throw new SvcError(Code.InvalidArgument, `camera_name: required, since ${formatResourceName(vision.name)} has no default camera`);
    const camera = resolveResource<ImageSource>(lookup, CAMERA_API, named, "getImages", "GetImages");
    const first = (await camera.getImages([], extra)).images[0];
    if (first === undefined) throw new SvcError(Code.Unavailable, `${formatResourceName(camera.name)} gave no image`);
    return { image: first.image, mimeType: first.mimeType, cameraName: named };
  }

  return {
    async getDetections(request) {
      const vision = detector(request.name, "GetDetections");
      const detections = await vision.detections(sentImage(request.image, request.mimeType, request.width, request.height), request.extra);
      return { detections: detections.map(wireDetection) };
    },
    async getDetectionsFromCamera(request) {
      const vision = detector(request.name, "GetDetectionsFromCamera");
      const detections = await vision.detections(await cameraImage(vision, request.cameraName, request.extra), request.extra);
      return { detections: detections.map(wireDetection) };
    },
    async getClassifications(request) {
      const vision = classifier(request.name, "GetClassifications");
      const image = sentImage(request.image, request.mimeType, request.width, request.height);
      return { classifications: await vision.classifications(image, Math.max(0, request.n), request.extra) };
    },
    async getClassificationsFromCamera(request) {
      const vision = classifier(request.name, "GetClassificationsFromCamera");
      const image = await cameraImage(vision, request.cameraName, request.extra);
      return { classifications: await vision.classifications(image, Math.max(0, request.n), request.extra) };
    },
    async getObjectPointClouds(request) {
      const vision = service(request.name, "properties", "GetObjectPointClouds");
      throw new SvcError(Code.Unimplemented, `${formatResourceName(vision.name)} does not support GetObjectPointClouds (its model segments no point clouds)`);
    },
    async getProperties(request) {
      return service(request.name, "properties", "GetProperties").properties(request.extra);
    },
    async captureAllFromCamera(request) {
      const vision = service(request.name, "properties", "CaptureAllFromCamera");
      const image = await cameraImage(vision, request.cameraName, request.extra);
      // What the model does not give is left out, as asked for or not.
      const detections = request.returnDetections && vision.detections ? await vision.detections(image, request.extra) : [];
      const classifications = request.returnClassifications && vision.classifications ? await vision.classifications(image, 0, request.extra) : [];
      const wireImage = { sourceName: image.cameraName, mimeType: image.mimeType, format: formats[image.mimeType] ?? Format.UNSPECIFIED, image: image.image };
      return {
        ...(request.returnImage ? { image: wireImage } : {}),
        detections: detections.map(wireDetection),
        classifications,
      };
    },
    doCommand: doCommandMethod(lookup, VISION_API),
  };
}
