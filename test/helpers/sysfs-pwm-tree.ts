// A /sys/class/pwm tree in a temporary directory: chips with their `device` links and channels
// already exported, so the sysfs PWM backend can be driven and its writes read back.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PwmTree {
  root: string;
  read(chip: string, file: string): string;
  remove(): void;
}

/** `chips`: chip name -> its platform device and the channels already exported. */
export function createPwmTree(chips: Record<string, { device: string; exported: number[]; channels?: number }>): PwmTree {
  const root = mkdtempSync(join(tmpdir(), "svc-pwm-"));
  for (const [chip, { device, exported, channels = 4 }] of Object.entries(chips)) {
    const dir = join(root, chip);
    mkdirSync(dir);
    symlinkSync(`../../devices/platform/soc/${device}`, join(dir, "device"));
    writeFileSync(join(dir, "npwm"), `${channels}\n`);
    writeFileSync(join(dir, "export"), "");
    writeFileSync(join(dir, "unexport"), "");
    for (const channel of exported) {
      const ch = join(dir, `pwm${channel}`);
      mkdirSync(ch);
      for (const file of ["period", "duty_cycle", "enable"]) writeFileSync(join(ch, file), "0\n");
    }
  }
  return {
    root,
    read: (chip, file) => readFileSync(join(root, chip, file), "utf8").trim(),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
