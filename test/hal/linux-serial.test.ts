// Serial on Linux through the real serialport library, over a socat pseudo-terminal pair: the
// harness's serial checks, the Serial IO's contract, and the serial line sensor reading a device.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sensor } from "../../core/components/index.js";
import { IOError, requireIO, type Serial } from "../../hal/io.js";
import { openLinuxIO, type LinuxHost } from "../../hal/linux/index.js";
import { runCli } from "../../tools/hal-conformance/cli.js";
import { createTestMachine, entry } from "../components/test-machine.js";
import { eventually } from "../helpers/eventually.js";
import { startPtyPair, type PtyPair } from "./pty-pair.js";

let pty: PtyPair;
let host: LinuxHost;
beforeAll(async () => {
  pty = await startPtyPair();
  host = await openLinuxIO();
});
afterAll(() => pty?.stop());

const text = (s: string) => new TextEncoder().encode(s);

/** Opens a port that keeps what arrives, with the count of onReadable calls. */
function receiver(port: string, baud = 115200) {
  const got: number[] = [];
  let calls = 0;
  const serial: Serial = new (requireIO(host.io, "Serial"))({
    port,
    baud,
    onReadable: () => {
      calls++;
      for (const b of serial.read() ?? []) got.push(b);
    },
  });
  return { serial, got, calls: () => calls };
}

describe("the harness's serial checks on serialport over a pty pair", () => {
  it("passes binary loopback both ways at each baud rate", async () => {
    const lines: string[] = [];
    const code = await runCli(["--backend", "linux", "--serial", `${pty.a}:${pty.b}`, "--baud", "9600,57600,115200"], (l) => lines.push(l));
    expect(lines.filter((l) => l.startsWith("serial "))).toEqual([
      expect.stringMatching(/^serial .*\/a <-> .*\/b @ 9600 +pass {5}512 bytes each way$/),
      expect.stringMatching(/@ 57600 +pass/),
      expect.stringMatching(/@ 115200 +pass/),
    ]);
    expect(code).toBe(0);
  });
});

describe("the Linux Serial IO", () => {
  it("delivers bytes through onReadable and read(), and nothing when nothing waits", async () => {
    const a = receiver(pty.a);
    const b = receiver(pty.b);
    try {
      expect(a.serial.read()).toBeUndefined();
      b.serial.write(Uint8Array.of(0, 1, 0xfe, 0xff, 0x0a, 0x0d, 0x03, 0x11));
      await eventually(() => (a.got.length === 8 ? true : undefined), "8 bytes at a");
      expect(a.got).toEqual([0, 1, 0xfe, 0xff, 0x0a, 0x0d, 0x03, 0x11]);
      expect(a.calls()).toBeGreaterThan(0);
    } finally {
      a.serial.close();
      b.serial.close();
    }
  });

  it("calls nothing after close, refuses use after close, and frees the port", async () => {
    const a = receiver(pty.a);
    const b = receiver(pty.b);
    a.serial.close();
    b.serial.write(text("late"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.calls()).toBe(0);
    expect(() => a.serial.read()).toThrow(new IOError("closed", `serial port ${pty.a} is closed`));
    expect(() => a.serial.write(text("x"))).toThrow(IOError);
    b.serial.close();
    // The pty opens again once closed.
    const again = receiver(pty.a);
    again.serial.close();
  });

  it("names a port that is not there, and refuses a port number", () => {
    const Serial = requireIO(host.io, "Serial");
    expect(() => new Serial({ port: "/dev/ttyNOPE9", baud: 9600 })).toThrow(
      new IOError("io", "/dev/ttyNOPE9 not found: is the device plugged in, and the UART enabled?"),
    );
    expect(() => new Serial({ port: 3, baud: 9600 })).toThrow(/a device path like \/dev\/ttyUSB0, got 3/);
    expect(() => new Serial({ port: pty.a, baud: 0 })).toThrow(/baud must be a positive integer/);
  });
});

describe("the serial line sensor on a pty", () => {
  it("reads key=value lines a device prints, keeping each key's last value", async () => {
    const machine = createTestMachine({}, { io: host.io });
    const device = receiver(pty.b);
    try {
      const sensor = await machine.build<Sensor>(entry("sensor", "env", { serial_path: pty.a, serial_baud_rate: 115200 }, "rdk:builtin:serial-line"));
      await expect(sensor.getReadings()).rejects.toThrow(`sensor env has no reading from ${pty.a} yet`);
      // The sensor's port flushes what arrives before it is open: the device repeats its first line.
      await eventually(async () => {
        device.serial.write(text("temp=21.5 hum=40\r\n"));
        return sensor.getReadings();
      }, "a first reading");
      device.serial.write(text("door=open, ok=true\nvol"));
      device.serial.write(text("ts=3.3\ntemp=22\n"));
      const readings = await eventually(async () => {
        const r = await sensor.getReadings().catch(() => undefined);
        return r && r.volts !== undefined && r.temp === 22 ? r : undefined;
      }, "all four lines read");
      expect(readings).toEqual({ temp: 22, hum: 40, door: "open", ok: true, volts: 3.3 });
    } finally {
      device.serial.close();
      await machine.closeAll();
    }
  });
});
