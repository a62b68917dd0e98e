// A small Linux guest for tests that need kernel drivers this machine lacks (the i2c-stub I2C
// bus): qemu boots the Debian kernel with a busybox initramfs built here, mounts the host's root
// read-only over 9p, chroots into it, loads the modules asked for, runs one host command with
// the host's own node, prints its output on the serial console and powers off.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { nativeExternals } from "../../tools/build/entries.mjs";

const QEMU = "qemu-system-x86_64";
/** The modules the initramfs loads to reach the host's root over virtio 9p. */
const NINEP_MODULES = ["virtio_pci", "9pnet_virtio", "9p"];

export interface GuestKernel {
  image: string;
  modules: string;
  busybox: string;
}

/** The kernel, its modules and a static busybox, or why the guest cannot start here. */
export function findGuestKernel(): GuestKernel | string {
  const probe = spawnSync(QEMU, ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return `${QEMU} cannot run here (${probe.error?.message ?? probe.stderr.trim()}): apt install qemu-system-x86`;
  const busybox = ["/bin/busybox", "/usr/bin/busybox"].find((p) => existsSync(p) && isStatic(p));
  if (!busybox) return "no static busybox: apt install busybox-static";
  let images: string[] = [];
  try {
    images = readdirSync("/boot").filter((f) => f.startsWith("vmlinuz-"));
  } catch {
    // No /boot at all.
  }
  for (const image of images.sort().reverse()) {
    const version = image.slice("vmlinuz-".length);
    const modules = `/lib/modules/${version}`;
    if (existsSync(`${modules}/modules.dep`)) {
      try {
        readFileSync(`/boot/${image}`).subarray(0, 1);
      } catch {
        return `/boot/${image} is not readable by this user`;
      }
      return { image: `/boot/${image}`, modules, busybox };
    }
  }
  return "no kernel with its modules (/boot/vmlinuz-* and /lib/modules/<version>): apt install linux-image-amd64";
}

function isStatic(path: string): boolean {
  const ldd = spawnSync("ldd", [path], { encoding: "utf8" });
  return /not a dynamic executable|statically linked/.test(`${ldd.stdout}${ldd.stderr}`);
}

/** Module files to insmod, each after what it depends on, from modules.dep. */
export function moduleLoadOrder(modulesDir: string, wanted: readonly string[]): string[] {
  const deps = new Map<string, string[]>();
  for (const line of readFileSync(join(modulesDir, "modules.dep"), "utf8").split("\n")) {
    const [file, rest] = line.split(":");
    if (file && rest !== undefined) deps.set(file, rest.trim().split(/\s+/).filter(Boolean));
  }
  const byName = new Map<string, string>();
  for (const file of deps.keys()) byName.set(basename(file).replace(/\.ko(\.\w+)?$/, "").replace(/-/g, "_"), file);
  const order: string[] = [];
  const visit = (file: string) => {
    if (order.includes(file)) return;
    for (const dep of deps.get(file) ?? []) visit(dep);
    order.push(file);
  };
  for (const name of wanted) {
    const file = byName.get(name.replace(/-/g, "_"));
    if (!file) throw new Error(`kernel module ${name} not found in ${modulesDir}/modules.dep`);
    visit(file);
  }
  return order;
}

/** A gzipped cpio (newc) archive of the given files and directories. */
export function initramfs(entries: Array<{ path: string; mode: number; data?: Uint8Array }>): Buffer {
  const chunks: Buffer[] = [];
  const pad = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
  let ino = 1;
  const add = (path: string, mode: number, data: Uint8Array) => {
    const name = Buffer.from(`${path}\0`);
    const fields = [ino++, mode, 0, 0, 1, 0, data.length, 0, 0, 0, 0, name.length, 0];
    const header = Buffer.from(`070701${fields.map((f) => f.toString(16).padStart(8, "0")).join("")}`);
    chunks.push(header, name, pad(header.length + name.length), Buffer.from(data), pad(data.length));
  };
  for (const e of entries) add(e.path, e.mode, e.data ?? new Uint8Array());
  add("TRAILER!!!", 0, new Uint8Array());
  return gzipSync(Buffer.concat(chunks));
}

function moduleBytes(path: string): Uint8Array {
  if (path.endsWith(".ko")) return readFileSync(path);
  if (path.endsWith(".ko.xz")) {
    const xz = spawnSync("xz", ["-dc", path], { maxBuffer: 64 << 20 });
    if (xz.status === 0) return xz.stdout;
  }
  throw new Error(`cannot unpack kernel module ${path} for busybox insmod`);
}

export interface GuestRun {
  /** Everything the guest printed on its console. */
  console: string;
  /** Lines the command printed after `marker `, parsed as JSON. */
  results: unknown[];
}

export interface GuestOptions {
  kernel: GuestKernel;
  /** `modprobe` arguments run in the guest before the command, one module a line. */
  modprobe: string[];
  /** The host command to run in the guest, from the repository root. */
  command: string;
  marker: string;
  timeoutMs: number;
}

export async function runInGuest(options: GuestOptions): Promise<GuestRun> {
  const { kernel } = options;
  const work = mkdtempSync(join(tmpdir(), "svc-guest-"));
  try {
    const files = moduleLoadOrder(kernel.modules, NINEP_MODULES).map((f) => join(kernel.modules, f));
    const insmods = files.map((f) => `$B insmod /mod/${basename(f).replace(/\.xz$/, "")} || echo "insmod ${basename(f)} failed"`);
    const init = [
      "#!/bin/busybox sh",
      "B=/bin/busybox",
      "$B mkdir -p /proc /sys /dev /mnt",
      "$B mount -t proc proc /proc && $B mount -t sysfs sys /sys && $B mount -t devtmpfs dev /dev",
      ...insmods,
      "$B mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /mnt || echo 'mounting the host root failed'",
      "$B mount -t proc proc /mnt/proc && $B mount -t sysfs sys /mnt/sys && $B mount -t devtmpfs dev /mnt/dev",
      "echo SVC-GUEST-UP",
      `$B chroot /mnt /bin/sh -c ${shellQuote(
        ["export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/", ...options.modprobe.map((m) => `modprobe ${m}`), `cd ${process.cwd()}`, options.command].join(" && "),
      )} || echo "the guest command failed"`,
      "$B poweroff -f",
    ].join("\n");
    const image = initramfs([
      { path: "bin", mode: 0o40755 },
      { path: "mod", mode: 0o40755 },
      { path: "bin/busybox", mode: 0o100755, data: readFileSync(kernel.busybox) },
      { path: "init", mode: 0o100755, data: Buffer.from(`${init}\n`) },
      ...files.map((f) => ({ path: `mod/${basename(f).replace(/\.xz$/, "")}`, mode: 0o100644, data: moduleBytes(f) })),
    ]);
    const initrd = join(work, "initrd.gz");
    writeFileSync(initrd, image);
    return await boot(kernel, initrd, options);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function boot(kernel: GuestKernel, initrd: string, options: GuestOptions): Promise<GuestRun> {
  // TCG, not KVM: nested KVM is missing or unreliable on build machines, and TCG boots in seconds.
  const args = [
    "-accel", "tcg", "-cpu", "max", "-m", "1024", "-smp", "1",
    "-nodefaults", "-no-user-config", "-display", "none", "-serial", "stdio", "-no-reboot",
    "-kernel", kernel.image, "-initrd", initrd,
    "-append", "console=ttyS0 quiet loglevel=1 panic=-1",
    "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
  ];
  return new Promise((resolve, reject) => {
    const qemu = spawn(QEMU, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    qemu.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    qemu.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      qemu.kill("SIGKILL");
      reject(new Error(`the guest did not finish within ${options.timeoutMs} ms; console:\n${out.slice(-4000)}`));
    }, options.timeoutMs);
    qemu.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${QEMU} cannot start: ${error.message}`));
    });
    qemu.on("exit", (code) => {
      clearTimeout(timer);
      if (!out.includes("SVC-GUEST-UP") && out.trim() === "" && code !== 0) {
        reject(new Error(`${QEMU} exited with ${code} before the guest started: ${err.trim()}`));
        return;
      }
      const results = out
        .split(/\r?\n/)
        .filter((l) => l.startsWith(`${options.marker} `))
        .map((l) => JSON.parse(l.slice(options.marker.length + 1)) as unknown);
      resolve({ console: out, results });
    });
  });
}

/**
 * Bundles a TypeScript entry for the guest into a temporary directory whose node_modules is
 * this repository's, so the native addons resolve as they do on the host. Returns the bundle
 * path and a function that removes it.
 */
export async function bundleForGuest(entry: string): Promise<{ file: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-guest-script-"));
  symlinkSync(join(process.cwd(), "node_modules"), join(dir, "node_modules"));
  const file = join(dir, `${basename(entry).replace(/\.ts$/, "")}.mjs`);
  await build({
    absWorkingDir: process.cwd(),
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    external: nativeExternals,
    logLevel: "error",
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
