// The camera API: the latest image of each of its sources, each encoded (PNG, JPEG, ...) with
// its MIME type, and what the camera can give.
import type { Commandable, Extra } from "../../../core/index.js";

export interface CameraImage {
  /** The source the image came from ("color", "depth"); one camera may have several. */
  sourceName: string;
  mimeType: string;
  /** The encoded image. */
  image: Uint8Array;
}

export interface CameraFrames {
  images: CameraImage[];
  /** When the images were taken, in milliseconds since the epoch. */
  capturedAt: number;
}

export interface CameraIntrinsics {
  widthPx: number;
  heightPx: number;
  focalXPx: number;
  focalYPx: number;
  centerXPx: number;
  centerYPx: number;
}

export interface CameraProperties {
  supportsPcd: boolean;
  /** The MIME types the camera encodes images in. */
  mimeTypes: string[];
  /** The pinhole model, where the camera knows it. */
  intrinsics?: CameraIntrinsics;
  frameRate?: number;
}

export interface Camera extends Commandable {
  /** The images of the sources named, or of every source when none are. */
  getImages(sourceNames: readonly string[], extra?: Extra): Promise<CameraFrames>;
  getProperties(): Promise<CameraProperties>;
}
