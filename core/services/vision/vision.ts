// The vision service API: detections (labelled boxes) and classifications (labels of the whole
// image) of an encoded image, and what the service gives. The API's handlers fetch a camera's
// image for the *FromCamera calls, so a model only ever sees images.
import type { Commandable, Extra } from "../../components/index.js";

export interface VisionImage {
  /** The encoded image (PNG, JPEG, ...). */
  image: Uint8Array;
  mimeType: string;
  /** The size in pixels, where the client or the camera said it. */
  width?: number;
  height?: number;
}

export interface Detection {
  /** The box's corners in pixels. */
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  /** The corners in [0, 1] of the image's width and height, where its size is known. */
  normalized?: { xMin: number; yMin: number; xMax: number; yMax: number };
  /** How sure the service is, 0 to 1. */
  confidence: number;
  className: string;
}

export interface Classification {
  className: string;
  confidence: number;
}

export interface VisionProperties {
  classificationsSupported: boolean;
  detectionsSupported: boolean;
  objectPointCloudsSupported: boolean;
}

export interface VisionService extends Commandable {
  properties(extra?: Extra): Promise<VisionProperties>;
  /** The camera the *FromCamera calls use when the request names none. */
  readonly defaultCamera?: string;
  /** Present on a model that detects. */
  detections?(image: VisionImage, extra?: Extra): Promise<Detection[]>;
  /** Present on a model that classifies: the `n` most confident, or all when `n` is 0. */
  classifications?(image: VisionImage, n: number, extra?: Extra): Promise<Classification[]>;
}

/** What the vision API needs of a camera: its images, each with its MIME type. */
export interface ImageSource {
  getImages(sourceNames: readonly string[], extra?: Extra): Promise<{ images: Array<{ sourceName: string; mimeType: string; image: Uint8Array }> }>;
}
