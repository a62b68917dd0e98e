// What a Pico W firmware takes of its 2 MB flash, read from the linked ELF. Moddable's pico
// layout (build/devices/pico/config/xsproj_rp2040.ld, xs/platforms/pico/xsHost.c): the image
// from 0x10000000 to __flash_binary_end (code, read-only data and the initial values of .data,
// the preloaded XS archive inside), then free flash for mods, then the file system partition
// holding the stored configuration (MODDEF_FILE_LFS_PARTITION_SIZE, 64 KB) just below the 32 KB
// of preferences at 0x101F8000.
import { execFileSync } from "node:child_process";

export const FLASH_START = 0x10000000;
export const PREFERENCES_START = 0x101f8000;
export const CONFIG_PARTITION_BYTES = 64 * 1024;
/** The bytes an image may take: 2 MB less the preferences and the configuration's partition. */
export const FLASH_BUDGET = PREFERENCES_START - FLASH_START - CONFIG_PARTITION_BYTES;

function symbols(elf) {
  const out = execFileSync("arm-none-eabi-nm", [elf], { encoding: "utf8" });
  const found = new Map();
  for (const line of out.split("\n")) {
    const [address, , name] = line.trim().split(/\s+/);
    if (name) found.set(name, Number.parseInt(address, 16));
  }
  return found;
}

/** `size` of the ELF in Berkeley form: text (code and read-only data), data, bss. */
function sections(elf) {
  const out = execFileSync("arm-none-eabi-size", ["-B", elf], { encoding: "utf8" }).split("\n")[1] ?? "";
  const [text, data, bss] = out.trim().split(/\s+/).map(Number);
  return { text, data, bss };
}

export function flashUse(elf) {
  const found = symbols(elf);
  const end = found.get("__flash_binary_end");
  if (end === undefined) throw new Error(`${elf} has no __flash_binary_end: not a Pico image`);
  const image = end - FLASH_START;
  return { ...sections(elf), image, budget: FLASH_BUDGET, fits: image <= FLASH_BUDGET };
}
