// --aix-install: installs the running executable as the systemd service `svc-server`: copies it
// to /usr/local/bin/svc-server, writes /etc/systemd/system/svc-server.service running it with
// `-config /etc/svc.json`, then has systemd reload its units and enable and start the service.
// Files go under a root prefix ("/" in production), so the install can be tested without root.
import { chmodSync, copyFileSync, existsSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { enableUnit, InstallError, makeDirectorySync, type CommandRunner } from "../../system/index.js";
import { SERVICE_NAME, serverUnitText } from "./systemd-unit.js";

export interface InstallOptions {
  /** The executable to install (see runningExecutable). */
  executable: string;
  /** Run for `systemctl daemon-reload` and `systemctl enable --now svc-server`. */
  run: CommandRunner;
  /** Where the file system starts. Default "/". */
  root?: string;
  /** Default /usr/local/bin/svc-server. */
  installPath?: string;
  /** Default /etc/svc.json. */
  configPath?: string;
  /** See serverUnitText. */
  stopTimeoutSec?: number;
}

export interface InstallResult {
  /** Paths as written, root prefix included. */
  executablePath: string;
  unitPath: string;
  unitText: string;
  /** The commands run, as typed. */
  commands: string[];
  /** Things the user should know (the configuration file is not there yet). */
  notes: string[];
}

export async function installServerService(options: InstallOptions): Promise<InstallResult> {
  const root = resolve(options.root ?? "/");
  const installPath = options.installPath ?? "/usr/local/bin/svc-server";
  const configPath = options.configPath ?? "/etc/svc.json";
  for (const [what, path] of [["installPath", installPath], ["configPath", configPath]]) {
    if (!isAbsolute(path!)) throw new InstallError(`${what} must be absolute (found ${JSON.stringify(path)})`);
  }
  const source = checkSource(options.executable);
  const executablePath = join(root, installPath);
  const unitPath = join(root, "etc/systemd/system", `${SERVICE_NAME}.service`);
  const unitText = serverUnitText({ executable: installPath, configPath, stopTimeoutSec: options.stopTimeoutSec });

  step(`install ${executablePath}`, () => {
    if (sameFile(source, executablePath)) return;
    makeDirectorySync(dirname(executablePath));
    // Copy beside, then rename: an executable that is running is replaced, not overwritten.
    const temporary = `${executablePath}.new-${process.pid}`;
    copyFileSync(source, temporary);
    chmodSync(temporary, 0o755);
    renameSync(temporary, executablePath);
  });
  step(`write ${unitPath}`, () => {
    makeDirectorySync(dirname(unitPath));
    const temporary = `${unitPath}.new-${process.pid}`;
    writeFileSync(temporary, unitText, { mode: 0o644 });
    renameSync(temporary, unitPath);
  });

  const commands = await enableUnit(options.run, SERVICE_NAME);

  const notes: string[] = [];
  if (!existsSync(join(root, configPath))) {
    notes.push(`${configPath} does not exist yet: the service keeps restarting until a configuration is written there`);
  }
  return { executablePath, unitPath, unitText, commands, notes };
}

function checkSource(executable: string): string {
  try {
    if (statSync(executable).isFile()) return realpathSync(executable);
  } catch {
    // Said below.
  }
  throw new InstallError(`the executable to install, ${executable}, is not a file`);
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function step(what: string, action: () => void): void {
  try {
    action();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "EACCES" || code === "EPERM" ? "permission denied (run as root)" : (cause as Error).message;
    throw new InstallError(`cannot ${what}: ${why}`, { cause });
  }
}
