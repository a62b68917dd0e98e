// The platform name artifacts are listed under in the release index, for the machine we run on.
import { ReleaseError } from "./release-error.js";

const ARCHES: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** "linux/amd64" or "linux/arm64"; anything else has no svc artifacts and is an error. */
export function currentPlatform(os: string = process.platform, arch: string = process.arch): string {
  const name = ARCHES[arch];
  if (os !== "linux" || name === undefined) {
    throw new ReleaseError(`no svc artifacts are built for ${os}/${arch} (only linux/amd64 and linux/arm64)`);
  }
  return `linux/${name}`;
}
