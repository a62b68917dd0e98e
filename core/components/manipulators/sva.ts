// A kinematic chain written as Viam's SVA kinematics file (JSON): its links and joints, each naming
// the part before it as its parent ("world" for the first), so clients (the SDKs' GetKinematics,
// motion planners, 3D views) see the chain the fake computes with.
import type { KinematicChain } from "./kinematic-chain.js";

const xyz = ([x, y, z]: readonly [number, number, number]) => ({ x, y, z });

/** The chain as an SVA document (a JSON value). */
export function svaDocument(chain: KinematicChain): Record<string, unknown> {
  const links: object[] = [];
  const joints: object[] = [];
  let parent = "world";
  for (const part of chain.parts) {
    if (part.kind === "link") {
      const o = part.orientation;
      const orientation = o ? { orientation: { type: "ov_degrees", value: { x: o.oX, y: o.oY, z: o.oZ, th: o.theta } } } : {};
      links.push({ id: part.id, parent, translation: xyz(part.translation), ...orientation });
    } else {
      joints.push({ id: part.id, type: part.type, parent, axis: xyz(part.axis), min: part.min, max: part.max });
    }
    parent = part.id;
  }
  return { name: chain.name, kinematic_param_type: "SVA", links, joints };
}

/** UTF-8 bytes of a string (the core has no TextEncoder on every engine). */
export function utf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const c = char.codePointAt(0)!;
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(bytes);
}

/** The chain's SVA file, as GetKinematics answers it. */
export function svaFile(chain: KinematicChain): Uint8Array {
  return utf8(JSON.stringify(svaDocument(chain)));
}
