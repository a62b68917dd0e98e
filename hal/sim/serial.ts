// Simulated serial ports: a port is looped back to itself, paired with another port, or answered
// by a script (a function from what was written to what comes back). Arrival is announced with
// `onReadable` on a microtask, as a UART interrupt would; `onWritable` once the port is open (on
// a microtask after construction, as ECMA-419 hosts do) and after each write.
import { IOError, type Serial, type SerialOptions } from "../io.js";

export type SimSerialWiring = "loopback" | { pair: string } | { script: (written: Uint8Array) => Uint8Array | undefined };

export interface SimSerialPorts {
  Serial: new (options: SerialOptions) => Serial;
  /** Bytes from outside arriving at a port (a device talking to the board). */
  inject(port: string, data: Uint8Array): void;
}

export function createSimSerial(wiring: Readonly<Record<string, SimSerialWiring>>): SimSerialPorts {
  const open = new Map<string, SimSerial>();

  const deliver = (port: string, data: Uint8Array) => {
    const target = open.get(port);
    if (target) target.receive(data);
  };

  class SimSerial implements Serial {
    private pending: number[] = [];
    private closed = false;
    private readonly port: string;
    constructor(private readonly options: SerialOptions) {
      this.port = String(options.port);
      if (!(this.port in wiring)) throw new IOError("invalid", `the simulated board has no serial port ${JSON.stringify(this.port)}`);
      if (open.has(this.port)) throw new IOError("busy", `serial port ${this.port} is already open`);
      if (!Number.isInteger(options.baud) || options.baud <= 0) throw new IOError("invalid", `baud must be a positive integer, got ${options.baud}`);
      open.set(this.port, this);
      const onWritable = options.onWritable;
      if (onWritable) void Promise.resolve().then(() => !this.closed && onWritable(4096));
    }
    read(count?: number): Uint8Array | undefined {
      if (this.closed) throw new IOError("closed", `serial port ${this.port} is closed`);
      if (this.pending.length === 0) return undefined;
      const n = count === undefined ? this.pending.length : Math.min(count, this.pending.length);
      return Uint8Array.from(this.pending.splice(0, n));
    }
    write(data: Uint8Array): void {
      if (this.closed) throw new IOError("closed", `serial port ${this.port} is closed`);
      const copy = Uint8Array.from(data);
      const wire = wiring[this.port]!;
      if (wire === "loopback") this.receive(copy);
      else if ("pair" in wire) deliver(wire.pair, copy);
      else {
        const answer = wire.script(copy);
        if (answer && answer.length) this.receive(Uint8Array.from(answer));
      }
      const onWritable = this.options.onWritable;
      if (onWritable) void Promise.resolve().then(() => !this.closed && onWritable(4096));
    }
    receive(data: Uint8Array): void {
      if (this.closed) return;
      for (const byte of data) this.pending.push(byte);
      const onReadable = this.options.onReadable;
      if (onReadable) void Promise.resolve().then(() => !this.closed && this.pending.length && onReadable(this.pending.length));
    }
    close(): void {
      if (this.closed) return;
      this.closed = true;
      open.delete(this.port);
    }
  }

  return { Serial: SimSerial, inject: deliver };
}
