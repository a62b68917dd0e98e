// A package fetched from the npm registry for an artifact, not installed: `npm pack` of one
// version into a work folder, refused unless its tarball has the pinned integrity.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The tarball of `name@version` in `into`, checked against `integrity` ("sha512-..."). */
export function packPinned(name, version, integrity, into) {
  const spec = `${name}@${version}`;
  const packed = spawnSync("npm", ["pack", spec, "--pack-destination", into, "--json", "--loglevel=error"], { cwd: into, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (packed.status !== 0) throw new Error(`npm pack ${spec} failed (the npm registry must be reachable the first time): ${packed.stderr.trim().split("\n").slice(-5).join("\n")}`);
  const tarball = join(into, JSON.parse(packed.stdout)[0].filename);
  const found = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (found !== integrity) throw new Error(`${spec} from the registry has integrity ${found}, not the pinned ${integrity}`);
  return tarball;
}
