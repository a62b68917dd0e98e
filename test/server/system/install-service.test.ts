// --aix-install under a root prefix: the executable is copied and made executable, the unit is
// written and accepted by `systemd-analyze verify`, and systemd is asked to reload and enable
// and start the service, in that order, through the injected runner.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireTools } from "../../helpers/system-tools.js";
import {
  InstallError,
  installServerService,
  runningExecutable,
  serverUnitText,
  systemdQuote,
  type CommandRunner,
} from "../../../targets/linux/server/system/index.js";

let root: string;
let executable: string;
let commands: string[];
const recorder: CommandRunner = async (command, args) => {
  commands.push([command, ...args].join(" "));
  return { code: 0, stdout: "", stderr: "" };
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "svc-install-"));
  executable = join(root, "downloads", "svc-server-x86_64.AppImage");
  mkdirSync(join(root, "downloads"));
  writeFileSync(executable, "#!/bin/sh\necho svc-server\n");
  chmodSync(executable, 0o755);
  commands = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));


describe("--aix-install", () => {
  it("copies the executable, writes the unit and enables the service", async () => {
    const result = await installServerService({ executable, root, run: recorder });
    const installed = join(root, "usr/local/bin/svc-server");
    expect(result.executablePath).toBe(installed);
    expect(readFileSync(installed, "utf8")).toBe("#!/bin/sh\necho svc-server\n");
    expect(statSync(installed).mode & 0o777).toBe(0o755);

    expect(result.unitPath).toBe(join(root, "etc/systemd/system/svc-server.service"));
    const unit = readFileSync(result.unitPath, "utf8");
    expect(unit).toBe(result.unitText);
    expect(unit).toContain("\nExecStart=/usr/local/bin/svc-server -config /etc/svc.json\n");
    expect(unit).toContain("\nRestart=always\n");
    expect(unit).toContain("\nKillMode=mixed\n");
    expect(unit).toContain("\nTimeoutStopSec=60\n");
    expect(unit).toContain("\nWantedBy=multi-user.target\n");

    expect(commands).toEqual(["systemctl daemon-reload", "systemctl enable --now svc-server"]);
    expect(result.commands).toEqual(commands);
    expect(result.notes).toEqual(["/etc/svc.json does not exist yet: the service keeps restarting until a configuration is written there"]);
    expect(readdirSync(join(root, "usr/local/bin"))).toEqual(["svc-server"]);
  });

  it("writes a unit that `systemd-analyze verify` accepts without a warning", async () => {
    requireTools("systemd-analyze");
    // The units every service depends on by default, so the check runs inside the prefix.
    const units = join(root, "usr/lib/systemd/system");
    mkdirSync(units, { recursive: true });
    for (const name of readdirSync("/usr/lib/systemd/system")) {
      const path = join("/usr/lib/systemd/system", name);
      if (name.endsWith(".target") && !lstatSync(path).isSymbolicLink()) copyFileSync(path, join(units, name));
    }
    mkdirSync(join(root, "etc"), { recursive: true });
    writeFileSync(join(root, "etc/svc.json"), "{}\n");
    for (const installPath of ["/usr/local/bin/svc-server", "/opt/svc 100%/bin/svc-server"]) {
      const result = await installServerService({ executable, root, run: recorder, installPath });
      expect(result.notes).toEqual([]);
      const verify = spawnSync("systemd-analyze", ["verify", "--man=no", `--root=${root}`, "/etc/systemd/system/svc-server.service"], {
        encoding: "utf8",
      });
      expect(verify.stderr.trim(), installPath).toBe("");
      expect(verify.status, installPath).toBe(0);
    }
  });

  it("installs again over an earlier install, and from the installed file itself", async () => {
    await installServerService({ executable, root, run: recorder });
    writeFileSync(executable, "#!/bin/sh\necho newer\n");
    await installServerService({ executable, root, run: recorder });
    const installed = join(root, "usr/local/bin/svc-server");
    expect(readFileSync(installed, "utf8")).toBe("#!/bin/sh\necho newer\n");
    await installServerService({ executable: installed, root, run: recorder });
    expect(readFileSync(installed, "utf8")).toBe("#!/bin/sh\necho newer\n");
    expect(commands).toHaveLength(6);
  });

  it("takes another install path and configuration path", async () => {
    const result = await installServerService({
      executable,
      root,
      run: recorder,
      installPath: "/opt/svc server/bin/svc-server",
      configPath: "/data/svc.json",
    });
    expect(existsSync(join(root, "opt/svc server/bin/svc-server"))).toBe(true);
    expect(result.unitText).toContain('\nExecStart="/opt/svc server/bin/svc-server" -config /data/svc.json\n');
  });

  it("says which step failed: a missing executable, a failing systemctl", async () => {
    await expect(installServerService({ executable: join(root, "nope"), root, run: recorder })).rejects.toThrow(
      `the executable to install, ${join(root, "nope")}, is not a file`,
    );
    const failing: CommandRunner = async (command, args) =>
      args[0] === "enable"
        ? { code: 1, stdout: "", stderr: "System has not been booted with systemd as init system (PID 1). Can't operate.\n" }
        : recorder(command, args);
    const error = await installServerService({ executable, root, run: failing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toBe(
      "systemctl enable --now svc-server failed (exit 1): System has not been booted with systemd as init system (PID 1). Can't operate.",
    );
    await expect(installServerService({ executable, root, run: recorder, installPath: "bin/svc" })).rejects.toThrow("installPath must be absolute");
  });

  it("a file in the way of a folder is reported, not thrown raw", async () => {
    writeFileSync(join(root, "etc"), "");
    await expect(installServerService({ executable, root, run: recorder })).rejects.toThrow(
      `cannot write ${join(root, "etc/systemd/system/svc-server.service")}`,
    );
  });
});

describe("the unit and the executable", () => {
  it("quotes Exec words systemd would split or expand", () => {
    expect(systemdQuote("/usr/local/bin/svc-server")).toBe("/usr/local/bin/svc-server");
    expect(systemdQuote("/opt/my svc/run")).toBe('"/opt/my svc/run"');
    expect(systemdQuote("/opt/100%/run")).toBe("/opt/100%%/run");
    expect(systemdQuote("/opt/$HOME/run")).toBe("/opt/$$HOME/run");
    expect(systemdQuote('/opt/a"b')).toBe('"/opt/a\\"b"');
    expect(serverUnitText({ executable: "/x/svc", stopTimeoutSec: 90 })).toContain("\nTimeoutStopSec=90\n");
  });

  it("the running executable is the AppImage, the single executable, or the script", () => {
    expect(runningExecutable({ env: { APPIMAGE: "/home/u/svc.AppImage" }, argv: ["/tmp/.mount/node", "x"], execPath: "/tmp/.mount/node", isSingleExecutable: false })).toBe("/home/u/svc.AppImage");
    expect(runningExecutable({ env: {}, argv: ["/usr/bin/svc-server", "-config"], execPath: "/usr/bin/svc-server", isSingleExecutable: true })).toBe("/usr/bin/svc-server");
    expect(runningExecutable({ env: {}, argv: ["/usr/bin/node", executable], execPath: "/usr/bin/node", isSingleExecutable: false })).toBe(executable);
    expect(runningExecutable()).toBe(process.argv[1] ? runningExecutable({ env: {}, argv: process.argv, execPath: process.execPath, isSingleExecutable: false }) : process.execPath);
  });
});
