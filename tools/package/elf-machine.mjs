// Which processor a native addon's code is for, read from its ELF header (e_machine), so that no
// artifact goes out holding an addon its platform cannot load: an x86-64 build in an arm64
// artifact fails only on the device, at the first use of the hardware it drives.
import { closeSync, openSync, readSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** e_machine of each artifact arch. */
export const ELF_MACHINE = { amd64: 62, arm64: 183 };
const MACHINE_NAMES = { 3: "x86", 40: "arm", 62: "x86-64", 183: "aarch64" };

/** The e_machine of an ELF file, or undefined when the file is not ELF. */
export function elfMachine(file) {
  const header = Buffer.alloc(20);
  const fd = openSync(file, "r");
  try {
    if (readSync(fd, header, 0, 20, 0) < 20) return undefined;
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return undefined;
  // EI_DATA: 1 little-endian, 2 big-endian.
  return header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
}

/** A machine number as people name it ("x86-64 (62)"), or "not an ELF file". */
export function machineName(machine) {
  if (machine === undefined) return "not an ELF file";
  return `${MACHINE_NAMES[machine] ?? "machine"} (${machine})`;
}

function nodeFiles(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) nodeFiles(path, found);
    else if (entry.isFile() && entry.name.endsWith(".node")) found.push(path);
  }
  return found;
}

/** Every `.node` file under `dir` that is not code for `arch`: `{ file (relative to dir), machine }`. */
export function foreignAddons(dir, arch) {
  const expected = ELF_MACHINE[arch];
  return nodeFiles(dir)
    .map((file) => ({ file: relative(dir, file), machine: elfMachine(file) }))
    .filter(({ machine }) => machine !== expected)
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}
