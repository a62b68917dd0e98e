// Serial checks on two ports wired to each other (or one port with TX looped to RX): every byte
// value, both ways, at each baud rate asked for.
import { requireIO, type Serial } from "../../hal/io.js";
import type { Check, ConformanceTarget } from "./check.js";

/** Every byte value, then a run that is not a simple count, so swapped or dropped bytes show. */
export function testPattern(): Uint8Array {
  const out = new Uint8Array(512);
  for (let i = 0; i < 256; i++) out[i] = i;
  let x = 0x5a;
  for (let i = 256; i < out.length; i++) out[i] = x = (x * 73 + 41) & 0xff;
  return out;
}

interface Receiver {
  serial: Serial;
  /** Resolves with the first `count` bytes received, or rejects after `ms`. */
  take(count: number, ms: number): Promise<Uint8Array>;
}

function openReceiver(target: ConformanceTarget, port: string, baud: number): Receiver {
  const got: number[] = [];
  let wake: (() => void) | undefined;
  const serial: Serial = new (requireIO(target.io, "Serial"))({
    port,
    baud,
    onReadable: () => {
      const bytes = serial.read();
      if (bytes) for (const b of bytes) got.push(b);
      wake?.();
    },
  });
  return {
    serial,
    take(count, ms) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          wake = undefined;
          reject(new Error(`${port} received ${got.length} of ${count} bytes within ${ms} ms`));
        }, ms);
        wake = () => {
          if (got.length < count) return;
          clearTimeout(timer);
          wake = undefined;
          resolve(Uint8Array.from(got.splice(0, count)));
        };
        wake();
      });
    },
  };
}

function firstDifference(a: Uint8Array, b: Uint8Array): string | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `byte ${i}: sent 0x${a[i]?.toString(16)}, received 0x${b[i]?.toString(16)}`;
  }
  return undefined;
}

export function serialChecks(target: ConformanceTarget, [p, q]: [string, string | undefined], bauds: number[]): Check[] {
  const name = q ? `${p} <-> ${q}` : `${p} loopback`;
  return bauds.map((baud) => ({
    capability: `serial ${name} @ ${baud}`,
    run: async () => {
      const data = testPattern();
      // Ten bits a byte on the wire, three times over for slack, and a second to start.
      const ms = 1000 + Math.ceil((data.length * 10 * 3 * 1000) / baud);
      const a = openReceiver(target, p, baud);
      let b: Receiver | undefined;
      try {
        b = q ? openReceiver(target, q, baud) : a;
        const directions: Array<[Receiver, Receiver]> = q ? [[a, b], [b, a]] : [[a, a]];
        for (const [from, to] of directions) {
          from.serial.write(data);
          const received = await to.take(data.length, ms);
          const diff = firstDifference(data, received);
          if (diff) throw new Error(diff);
        }
        return `${data.length} bytes${q ? " each way" : ""}`;
      } finally {
        a.serial.close();
        if (b && b !== a) b.serial.close();
      }
    },
  }));
}
