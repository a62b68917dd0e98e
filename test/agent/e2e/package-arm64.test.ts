// `npm run package -- --arch arm64` makes an svc-server artifact that runs on arm64: every native
// addon in it is aarch64 code (built here with the cross toolchain, or the package's own prebuilt
// binary), each loads in the arm64 Node.js, and the artifact's own launcher, run with that Node.js
// under qemu-aarch64-static, answers -version and serves the official SDK on loopback, and a call
// over WebRTC (node-datachannel's arm64 binary, fetched for the artifact). The
// packager refuses to write an artifact holding code for another machine, and says what to
// install when the cross toolchain is missing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addonBuildKey } from "../../../tools/package/cross-build-addon.mjs";
import { crossToolchain } from "../../../tools/package/cross-toolchain.mjs";
import { svcCacheDir } from "../../../tools/package/cache-dir.mjs";
import { TARGET_NODE } from "../../../tools/package/target-node.mjs";
import { eventually } from "../../helpers/eventually.js";
import { qemuArm64Node, type QemuArm64Node } from "../../helpers/qemu-arm64-node.js";
import { dialSdk, fullName } from "../../helpers/sdk-robot.js";
import { create, toBinary } from "@bufbuild/protobuf";
import { GetReadingsRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import { connectRaw } from "../../webrtc/raw-webrtc-client.js";

const repo = join(import.meta.dirname, "../../..");
const version = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }).version;
const artifactName = `svc-server-${version}-linux-arm64.tar.gz`;
const AARCH64 = 183;

let work: string;
let unpacked: string;
let node: QemuArm64Node;

/** The documented command, with DIR given. */
const packageArm64 = (out: string, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync("npm", ["run", "package", "--", "--arch", "arm64", "--only", "svc-server", "--out", out], { cwd: repo, env, encoding: "utf8", timeout: 900_000 });

/** e_machine from the ELF header, read here rather than by the packager's own reader. */
function machineOf(file: string): number | string {
  const header = Buffer.alloc(20);
  const fd = openSync(file, "r");
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return header.subarray(0, 4).toString("latin1") === "\x7fELF" ? header.readUInt16LE(18) : "not ELF";
}

function nodeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".node"))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "svc-arm64-"));
  node = qemuArm64Node(work);
  const packaged = packageArm64(join(work, "out"));
  if (packaged.status !== 0) throw new Error(`npm run package failed (${packaged.status}):\n${packaged.stdout}${packaged.stderr}`);
  unpacked = join(work, "svc-server");
  mkdirSync(unpacked);
  const untar = spawnSync("tar", ["-xzf", join(work, "out", artifactName), "-C", unpacked], { encoding: "utf8" });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the arm64 svc-server artifact", () => {
  it("holds aarch64 code in every .node file: the GPIO and I2C addons built for arm64, serialport's prebuilt one", () => {
    const files = nodeFiles(unpacked);
    expect(files).toEqual(
      expect.arrayContaining([
        "node_modules/i2c-bus/build/Release/i2c.node",
        "node_modules/node-libgpiod/build/Release/node-libgpiod.node",
        "node_modules/@serialport/bindings-cpp/prebuilds/linux-arm64/@serialport+bindings-cpp.armv8.glibc.node",
        "node_modules/@node-datachannel/linux-arm64-gnu/node_datachannel.node",
      ]),
    );
    expect(files.map((file) => [file, machineOf(join(unpacked, file))])).toEqual(files.map((file) => [file, AARCH64]));
  });

  it("loads each of its native addons in the arm64 Node.js, as svc-server's backends do", () => {
    const script = [
      'const gpiod = require("node-libgpiod");',
      'const i2c = require("i2c-bus");',
      'const { SerialPort } = require("serialport");',
      'const bindings = require("@serialport/bindings-cpp").autoDetect();',
      'const datachannel = require("node-datachannel");',
      "console.log(process.arch, typeof gpiod.Chip, typeof gpiod.getChipNames, typeof i2c.openSync, typeof SerialPort, typeof bindings.list, typeof datachannel.PeerConnection);",
    ].join("\n");
    // Resolved from inside the artifact, the way its bundle resolves them.
    const ran = node.run(["-e", script], join(unpacked, "lib"));
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe("arm64 function function function function function function\n");
  }, 300_000);

  it("answers -version through its launcher with the arm64 Node.js under qemu", () => {
    const ran = spawnSync(join(unpacked, "svc-server"), ["-version"], { env: { ...process.env, SVC_NODE: node.program }, encoding: "utf8", timeout: 300_000 });
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe(`svc-server ${version}\n`);
  }, 300_000);

  it("serves the official SDK on loopback: resource names, a fake sensor's readings, a fake motor's power; and a call over WebRTC", async () => {
    const server = startArm64Server();
    try {
      const url = await eventually(() => /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stderr())?.[1], "the arm64 svc-server to serve", {
        timeoutMs: 300_000,
      }).catch((error: Error) => {
        throw new Error(`${error.message}\n--- svc-server stderr ---\n${server.stderr()}`);
      });
      const robot = await dialSdk(`http://localhost:${new URL(url).port}`);
      try {
        const names = (await robot.resourceNames()).map(fullName);
        expect(names).toEqual(expect.arrayContaining(["rdk:component:sensor/temp", "rdk:component:motor/left"]));
        expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 22 });
        const motor = new VIAM.MotorClient(robot, "left");
        await motor.setPower(0.5);
        expect(await motor.isPowered()).toEqual([true, 0.5]);
      } finally {
        await robot.disconnect();
      }
      // The arm64 libdatachannel answers an offer and serves a call on its data channel.
      const connection = await connectRaw(url, new URL(url).host);
      try {
        const request = toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" }));
        connection.send({ stream: { id: 0n }, type: { case: "headers", value: { method: "/viam.component.sensor.v1.SensorService/GetReadings" } } });
        connection.send({ stream: { id: 0n }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: request, eom: true } } } });
        const trailers = await connection.next(0n, "trailers");
        expect(trailers.type.case === "trailers" && trailers.type.value.status?.code).toBe(0);
      } finally {
        connection.close();
      }
    } finally {
      await server.stop();
    }
    expect(server.child.exitCode ?? server.child.signalCode).not.toBeNull();
  }, 600_000);
});

/** The artifact's svc-server under qemu on localhost:0 (a free port), with a small config; stopped by its PID. */
function startArm64Server(): { child: ChildProcess; stderr(): string; stop(): Promise<void> } {
  const dir = mkdtempSync(join(work, "serve-"));
  const config = join(dir, "machine.json");
  writeFileSync(
    config,
    JSON.stringify({
      components: [
        { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } },
        { name: "left", api: "rdk:component:motor", model: "fake" },
      ],
      network: { bind_address: "localhost:0" },
    }),
  );
  // The launcher execs SVC_NODE, which execs qemu: the child's PID is the running server's.
  const child = spawn(join(unpacked, "svc-server"), ["-config", config], {
    // Its home is the test's folder too: the server records its diagnostics under ~/.svc.
    env: { PATH: process.env.PATH ?? "", HOME: dir, TMPDIR: dir, SVC_NODE: node.program },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (chunk) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGKILL");
      await exited;
    },
  };
}

describe("npm run package for arm64, refusing", () => {
  it("writes no artifact holding an addon built for another machine (here, a cached build that is x86-64 code)", () => {
    // A cache of its own where i2c-bus's arm64 build is this machine's x86-64 one.
    const cacheHome = mkdtempSync(join(work, "cache-"));
    const abi = TARGET_NODE.arm64.abi;
    const entry = (name: string) => {
      const { version: v } = JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")) as { version: string };
      return addonBuildKey(name, v, "arm64", abi);
    };
    const addons = join(cacheHome, "svc", "addons");
    cpSync(join(svcCacheDir(), "addons", entry("node-libgpiod")), join(addons, entry("node-libgpiod")), { recursive: true });
    mkdirSync(join(addons, entry("i2c-bus"), "Release"), { recursive: true });
    cpSync(join(repo, "node_modules/i2c-bus/build/Release/i2c.node"), join(addons, entry("i2c-bus"), "Release/i2c.node"));

    const out = join(work, "refused");
    const packaged = packageArm64(out, { ...process.env, XDG_CACHE_HOME: cacheHome });
    expect(packaged.status).toBe(2);
    expect(packaged.stderr).toContain(
      `package: ${artifactName} is not written: linux/arm64 needs native code for aarch64 (183), and it would hold node_modules/i2c-bus/build/Release/i2c.node (x86-64 (62))`,
    );
    expect(existsSync(join(out, artifactName))).toBe(false);
  }, 300_000);

  it("names the cross compilers and arm64 packages to install when they are missing", () => {
    const needs = () => crossToolchain("arm64", [{ name: "node-libgpiod", links: ["libsvc-absent-dev"] }], "/nonexistent");
    expect(needs).toThrow(
      "building node-libgpiod for linux/arm64 needs gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu, libsvc-absent-dev:arm64, which are not installed. " +
        "As root: dpkg --add-architecture arm64 && apt-get update && apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libsvc-absent-dev:arm64",
    );
  });
});
