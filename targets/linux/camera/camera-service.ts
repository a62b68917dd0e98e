// viam.component.camera.v1.CameraService: GetImages (each source's image with its MIME type and
// when it was taken), GetImage (the first image), GetProperties, DoCommand. A model without
// point clouds or geometries answers UNIMPLEMENTED for those, naming itself.
import {
  CAMERA_API,
  Code,
  doCommandMethod,
  formatResourceName,
  geometriesUnsupportedMethod,
  resolveResource,
  SvcError,
  timestampFromMs,
  type ResourceLookup,
  type ServiceHandlers,
} from "../../../core/index.js";
import { Format, type CameraService } from "../../../proto/gen/component/camera/v1/camera_pb.js";
import type { Camera, CameraImage } from "./camera.js";

const formats: Record<string, Format> = { "image/png": Format.PNG, "image/jpeg": Format.JPEG };

const wireImage = (i: CameraImage) => ({ sourceName: i.sourceName, mimeType: i.mimeType, format: formats[i.mimeType] ?? Format.UNSPECIFIED, image: i.image });

export function createCameraService(lookup: ResourceLookup): ServiceHandlers<typeof CameraService> {
  const camera = (name: string, method: keyof Camera & string, rpc: string) => resolveResource<Camera>(lookup, CAMERA_API, name, method, rpc);
  return {
    async getImages(request) {
      const frames = await camera(request.name, "getImages", "GetImages").getImages(request.filterSourceNames, request.extra);
      return { images: frames.images.map(wireImage), responseMetadata: { capturedAt: timestampFromMs(frames.capturedAt) } };
    },
    async getImage(request) {
      const frames = await camera(request.name, "getImages", "GetImage").getImages([], request.extra);
      const first = frames.images[0];
      if (first === undefined) throw new SvcError(Code.Unavailable, `${request.name}: the camera has no image to give`);
      // The MIME type asked for is a wish: the answer says which one came.
      return { mimeType: first.mimeType, image: first.image };
    },
    async getProperties(request) {
      const p = await camera(request.name, "getProperties", "GetProperties").getProperties();
      return { supportsPcd: p.supportsPcd, mimeTypes: p.mimeTypes, intrinsicParameters: p.intrinsics, frameRate: p.frameRate };
    },
    async getPointCloud(request) {
      const resource = lookup.resource(CAMERA_API, request.name);
      throw new SvcError(Code.Unimplemented, `${formatResourceName(resource.name)} does not support GetPointCloud (its model gives no point clouds)`);
    },
    doCommand: doCommandMethod(lookup, CAMERA_API),
    getGeometries: geometriesUnsupportedMethod(lookup, CAMERA_API),
  };
}
