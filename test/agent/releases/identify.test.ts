// An artifact without a checksum must say what it is before it is accepted.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identifyExecutable } from "../../../targets/linux/agent/releases/index.js";

let dir: string;
const exe = (name: string, body: string) => {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-identify-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("identifying an executable", () => {
  it("accepts one answering its product name to --version, or to -version", async () => {
    expect(await identifyExecutable(exe("agent", 'echo "svc-agent 2.3.4"'), "agent")).toBe("2.3.4");
    const goStyle = exe("server", '[ "$1" = "-version" ] && { echo "svc-server 1.9.0-rc.2"; exit 0; }; echo "unknown flag $1" >&2; exit 2');
    expect(await identifyExecutable(goStyle, "svc-server")).toBe("1.9.0-rc.2");
  });

  it("refuses one that answers something else, fails, or gives no semantic version", async () => {
    await expect(identifyExecutable(exe("other", 'echo "busybox 1.36.1"'), "svc-server")).rejects.toThrow(/is not svc-server: .*--version: "busybox 1\.36\.1"/);
    await expect(identifyExecutable(exe("wrong", 'echo "svc-server 1.0.0"'), "agent")).rejects.toThrow(/is not svc-agent/);
    await expect(identifyExecutable(exe("fails", 'echo "svc-server 1.0.0"; exit 1'), "svc-server")).rejects.toThrow(/is not svc-server/);
    await expect(identifyExecutable(exe("nover", 'echo "svc-server latest"'), "svc-server")).rejects.toThrow('"latest" is not a semantic version');
    await expect(identifyExecutable(join(dir, "absent"), "svc-server")).rejects.toThrow(/is not svc-server/);
  });

  it("gives up on one that never answers", async () => {
    await expect(identifyExecutable(exe("hangs", "exec sleep 30"), "svc-server", { timeoutMs: 300 })).rejects.toThrow(/is not svc-server/);
  });
});
