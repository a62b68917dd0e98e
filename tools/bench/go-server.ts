// The grpc-go reference server of the unary bench (tools/bench/go-server/main.go), built on this
// machine from source: Go code generated from this project's own .proto files by protoc with
// Debian's protoc-gen-go and protoc-gen-go-grpc, compiled in GOPATH mode against the grpc-go and
// Go protobuf sources Debian installs under /usr/share/gocode, offline, into dist/bench/go/ (the
// Go build cache too, so nothing is written elsewhere). tools/bench/setup-go.sh installs the
// packages when any is missing; what still cannot be had fails the bench, naming it.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { onPath } from "../../test/helpers/system-tools.js";

const gocode = "/usr/share/gocode";
/** The .proto files GetReadings needs (under proto/viam), each with its Go import path and package name. */
const goPackages: Record<string, string> = {
  "common/v1/common.proto": "svc.bench/gen/common/v1;commonpb",
  "component/sensor/v1/sensor.proto": "svc.bench/gen/component/sensor/v1;sensorpb",
};
const programs = ["go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc"];
const sources = [
  `${gocode}/src/google.golang.org/grpc/server.go`,
  `${gocode}/src/google.golang.org/protobuf/proto/encode.go`,
  "/usr/include/google/protobuf/struct.proto",
];

/** What is missing to build the server: programs not on the PATH, source files not installed. */
function missingParts(): string[] {
  return [...programs.filter((p) => !onPath(p)), ...sources.filter((f) => !existsSync(f))];
}

function ensureToolchain(root: string): void {
  if (missingParts().length === 0) return;
  const setup = spawnSync("sh", [join(root, "tools/bench/setup-go.sh")], { stdio: ["ignore", "inherit", "inherit"] });
  const still = missingParts();
  if (setup.status !== 0 || still.length) {
    const packages = spawnSync("sh", [join(root, "tools/bench/setup-go.sh"), "list"], { encoding: "utf8" }).stdout.trim();
    throw new Error(
      `unary bench: cannot build the grpc-go reference server: missing ${still.join(", ") || "Debian packages"} ` +
        `(tools/bench/setup-go.sh installs ${packages} as root)`,
    );
  }
}

function run(command: string, args: readonly string[], options: SpawnSyncOptions): void {
  const done = spawnSync(command, args, { ...options, encoding: "utf8" });
  if (done.error || done.status !== 0) {
    const why = done.error?.message ?? `exit ${done.status ?? done.signal}`;
    throw new Error(`unary bench: ${command} ${args.join(" ")} failed (${why}):\n${String(done.stderr ?? "").slice(-3_000)}`);
  }
}

/** Installs the toolchain if needed, generates the Go code and builds the server; returns the binary's path. */
export function buildGoServer(root: string): string {
  ensureToolchain(root);
  const out = join(root, "dist/bench/go");
  const gopath = join(out, "gopath");
  const generated = join(gopath, "src");
  rmSync(join(generated, "svc.bench"), { recursive: true, force: true });
  mkdirSync(generated, { recursive: true });
  const mappings = Object.entries(goPackages).map(([file, pkg]) => `M${file}=${pkg}`);
  run(
    "protoc",
    [
      "-I",
      join(root, "proto/viam"),
      "-I",
      "/usr/include",
      `--go_out=${generated}`,
      ...mappings.map((m) => `--go_opt=${m}`),
      `--go-grpc_out=${generated}`,
      ...mappings.map((m) => `--go-grpc_opt=${m}`),
      ...Object.keys(goPackages),
    ],
    { cwd: root },
  );
  const binary = join(out, "go-server");
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", GO111MODULE: "off", GOPATH: `${gopath}:${gocode}`, GOCACHE: join(out, "cache"), GOFLAGS: "", GOPROXY: "off" };
  run("go", ["build", "-o", binary, "tools/bench/go-server/main.go"], { cwd: root, env });
  return binary;
}
