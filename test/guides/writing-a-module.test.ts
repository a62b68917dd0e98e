// The README's "Writing a module" runs as written, in a fresh home folder: its first command makes
// the module, the module it shows is the file that command made, and its second command starts
// svc-server with the module's sensor answering the official SDK.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { guideBlocks, repositoryRoot } from "../helpers/guide.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { eventually } from "../helpers/eventually.js";

const home = mkdtempSync(join(tmpdir(), "svc-guide-module-"));
const env = { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: home };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the guide "Writing a module"', () => {
  const blocks = guideBlocks("README.md", "Writing a module");
  const commands = blocks.filter((b) => b.lang === "sh");
  const module = blocks.find((b) => b.lang === "js");

  it("shows two commands and the module's code", () => {
    expect(commands).toHaveLength(2);
    expect(module).toBeDefined();
  });

  it("makes the module it shows, executable, with the SDK and a configuration beside it", () => {
    const made = spawnSync("sh", ["-c", commands[0]!.text], { cwd: repositoryRoot, env, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const dir = join(home, "hello-module");
    expect(readFileSync(join(dir, "hello-module.mjs"), "utf8")).toBe(module!.text);
    expect(statSync(join(dir, "hello-module.mjs")).mode & 0o111).toBe(0o111);
    expect(statSync(join(dir, "svc-module-sdk.mjs")).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "machine.json"), "utf8")).modules[0].executable_path).toBe(join(dir, "hello-module.mjs"));
  });

  it("runs svc-server with the module, whose sensor answers the SDK", async () => {
    const server = spawn("sh", ["-c", commands[1]!.text], { cwd: repositoryRoot, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    server.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => server.once("exit", resolve));
    try {
      await eventually(() => (/serving http/.test(stderr) ? true : undefined), "svc-server serving");
      const robot = await dialSdk("http://localhost:8080");
      try {
        const sensor = new VIAM.SensorClient(robot, "greeter");
        const readings = await eventually(() => sensor.getReadings().catch(() => undefined), "the module's sensor");
        expect(readings).toEqual({ greeting: "hello from a module", readings: 1 });
      } finally {
        await robot.disconnect();
      }
    } finally {
      process.kill(-server.pid!, "SIGTERM");
      await exited;
    }
    expect(stderr).not.toMatch(/EACCES|ERR_UNKNOWN_FILE_EXTENSION/);
  });
});
