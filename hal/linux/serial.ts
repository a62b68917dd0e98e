// Serial ports (/dev/ttyUSB0, /dev/ttyAMA0, a pty) through serialport. The port opens in the
// background, as serialport does: a path that is not there fails at once, naming it; a failure
// found while opening (permission, a port held by another process) arrives through onError and
// leaves nothing open. As in ECMA-419, onWritable is first called once the port is open; bytes
// that arrived before then are flushed by the open. Writes made before it are sent once open.
import { existsSync } from "node:fs";
import { IOError, type Serial, type SerialOptions } from "../io.js";
import type { SerialPortHandle, SerialPortLibrary } from "./native.js";
import { ioErrorFrom } from "./system-error.js";

/** What onWritable announces: the kernel's usual tty buffer. */
const WRITABLE_BYTES = 4096;
/**
 * serialport locks the port; a handle closed a moment ago (a resource being reconfigured) may
 * still hold the lock, so a lock failure is retried this many times, this far apart.
 */
const LOCK_RETRIES = 20;
const LOCK_RETRY_MS = 50;

export function createLinuxSerialClass(library: SerialPortLibrary): new (options: SerialOptions) => Serial {
  return class LinuxSerial implements Serial {
    private readonly port: SerialPortHandle;
    private readonly path: string;
    private chunks: Uint8Array[] = [];
    private pending = 0;
    private closed = false;

    constructor(private readonly options: SerialOptions) {
      if (typeof options.port !== "string" || options.port === "") {
        throw new IOError("invalid", `a serial port on Linux is a device path like /dev/ttyUSB0, got ${JSON.stringify(options.port)}`);
      }
      if (!Number.isInteger(options.baud) || options.baud <= 0) throw new IOError("invalid", `baud must be a positive integer, got ${options.baud}`);
      this.path = options.port;
      if (!existsSync(this.path)) throw new IOError("io", `${this.path} not found: is the device plugged in, and the UART enabled?`);
      try {
        this.port = new library.SerialPort({ path: this.path, baudRate: options.baud, autoOpen: false });
      } catch (thrown) {
        throw ioErrorFrom(thrown, this.path);
      }
      this.port.on("data", (chunk) => this.receive(chunk));
      this.port.on("error", (error) => this.fail(error));
      this.open(LOCK_RETRIES);
    }

    read(count?: number): Uint8Array | undefined {
      if (this.closed) throw new IOError("closed", `serial port ${this.path} is closed`);
      if (this.pending === 0) return undefined;
      const n = count === undefined ? this.pending : Math.min(count, this.pending);
      const out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        const head = this.chunks[0]!;
        const take = Math.min(head.length, n - filled);
        out.set(head.subarray(0, take), filled);
        filled += take;
        if (take === head.length) this.chunks.shift();
        else this.chunks[0] = head.subarray(take);
      }
      this.pending -= n;
      return out;
    }

    write(data: Uint8Array): void {
      if (this.closed) throw new IOError("closed", `serial port ${this.path} is closed`);
      const onWritable = this.options.onWritable;
      this.port.write(Buffer.from(data), (error) => {
        if (error) this.fail(error);
        else if (onWritable && !this.closed) onWritable(WRITABLE_BYTES);
      });
    }

    close(): void {
      if (this.closed) return;
      this.closed = true;
      this.chunks = [];
      this.pending = 0;
      if (this.port.isOpen) this.port.close();
    }

    private open(retries: number): void {
      this.port.open((error) => {
        if (error && retries > 0 && !this.closed && /cannot lock port/i.test(error.message)) {
          setTimeout(() => this.open(retries - 1), LOCK_RETRY_MS).unref();
        } else if (error) this.fail(error);
        // Closed while opening: now that it is open, close it.
        else if (this.closed) this.port.close();
        else this.options.onWritable?.(WRITABLE_BYTES);
      });
    }

        private receive(chunk: Uint8Array): void {
      if (this.closed) return;
      this.chunks.push(chunk);
      this.pending += chunk.length;
      this.options.onReadable?.(this.pending);
    }

    private fail(error: Error | null | undefined): void {
      if (this.closed || !error) return;
      this.options.onError?.(ioErrorFrom(error, this.path));
    }
  };
}
