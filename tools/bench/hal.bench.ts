// The HAL's own cost: a simulated Digital.write (what every driver call on the sim pays on top
// of its own work) and an SMBus register read on the sim; and a serial round trip at 115200 baud
// through the real serialport library over a socat pseudo-terminal pair (a pty does not pace
// bytes at the baud rate, so this is the library and kernel's latency, not the wire's).
import { requireIO, type Serial } from "../../hal/io.js";
import { openLinuxIO } from "../../hal/linux/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { startPtyPair } from "../../test/hal/pty-pair.js";
import { nsPerCall, report } from "./report.js";

const sim = createSimBoard({ loops: [["11", "13"]], i2c: [{ bus: 1, address: 0x40, registers: { 2: 0x12, 3: 0x34 } }] });
const out = new (requireIO(sim.io, "Digital"))({ pin: "11", mode: "output" });
let level: 0 | 1 = 0;
report("hal sim Digital.write", nsPerCall(() => out.write((level = level ? 0 : 1))), "ns/call", "under 1000");
out.close();
const smbus = new (requireIO(sim.io, "SMBus"))({ bus: 1, address: 0x40, hz: 400_000 });
report("hal sim SMBus.readUint16", nsPerCall(() => smbus.readUint16(2, true)), "ns/call", "under 2000");
smbus.close();

const ROUND_TRIPS = 300;
const MESSAGE = Uint8Array.from({ length: 16 }, (_, i) => i * 13);
const pty = await startPtyPair();
try {
  const host = await openLinuxIO();
  const SerialIO = requireIO(host.io, "Serial");
  const ready = (port: string, onBytes: (s: Serial) => void) =>
    new Promise<Serial>((resolve) => {
      const serial: Serial = new SerialIO({ port, baud: 115200, onWritable: () => resolve(serial), onReadable: () => onBytes(serial) });
    });
  // The far end echoes what it gets; the near end counts bytes back and starts the next trip.
  const far = await ready(pty.b, (echo) => echo.write(echo.read()!));
  let back = 0;
  let done: (() => void) | undefined;
  const near = await ready(pty.a, (s) => {
    back += s.read()!.length;
    if (back >= MESSAGE.length) {
      back -= MESSAGE.length;
      done?.();
    }
  });
  const trip = () =>
    new Promise<void>((resolve) => {
      done = resolve;
      near.write(MESSAGE);
    });
  for (let i = 0; i < 20; i++) await trip();
  const start = performance.now();
  for (let i = 0; i < ROUND_TRIPS; i++) await trip();
  const micros = ((performance.now() - start) * 1000) / ROUND_TRIPS;
  report("hal serial round trip 16 B at 115200 over a pty (serialport)", micros, "µs", "under 1000");
  near.close();
  far.close();
} finally {
  await pty.stop();
}
