// Runs a built svc executable (dist/linux/*.mjs) as a real process and collects what it printed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const distLinux = join(import.meta.dirname, "..", "..", "dist", "linux");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  program: "svc-server" | "svc-agent",
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): CliResult {
  // A home folder of its own (svc-server records diagnostics under ~/.svc unless told), gone after.
  const home = mkdtempSync(join(tmpdir(), "cli-home-"));
  try {
    const run = spawnSync(process.execPath, [join(distLinux, `${program}.mjs`), ...args], {
      encoding: "utf8",
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmpdir(), ...options.env },
      timeout: 30_000,
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
