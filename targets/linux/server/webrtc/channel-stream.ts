// One call's stream as the channel server keeps it: the client's packets gathered into messages
// (each held to the limit) and handed to the call's body in gRPC envelopes, and the call's side
// of the stream (CallStream) for its answer.
import { Readable } from "node:stream";
import type { CallStream } from "./call-stream.js";

export interface ChannelStreamOptions {
  readonly id: bigint;
  /** The call takes one message: its body ends with the first. */
  readonly oneMessage: boolean;
  readonly maxMessageBytes: number;
  send(frame: Uint8Array): boolean;
  drained(): Promise<void>;
  /** The stream is over (answered or gone): the channel forgets it. */
  forget(id: bigint): void;
}

export class ChannelStream implements CallStream {
  readonly id: bigint;
  readonly body = new Readable({ read() {} });
  private packets: Uint8Array[] = [];
  private size = 0;
  private over = false;
  private isGone = false;
  private readonly goneListeners = new Set<() => void>();
  private readonly closeListeners: (() => void)[] = [];

  constructor(private readonly options: ChannelStreamOptions) {
    this.id = options.id;
    // Nobody may be reading when the call ends early; an unheard 'error' would end the process.
    this.body.on("error", () => {});
  }

  get gone(): boolean {
    return this.isGone;
  }

  /** Bytes of the message being gathered. */
  get received(): number {
    return this.size;
  }

  /** Takes one packet of a message; false when the message has grown past the limit. */
  packet(data: Uint8Array, eom: boolean): boolean {
    if (this.over) return true;
    this.size += data.length;
    if (this.size > this.options.maxMessageBytes) return false;
    if (data.length > 0) this.packets.push(data);
    if (eom) this.message();
    return true;
  }

  /** The client sends nothing more. */
  endOfStream(): void {
    if (!this.over) this.body.push(null);
    this.over = true;
  }

  /** The client reset the stream, or its connection went: the call is told and the stream forgotten. */
  goAway(): void {
    if (this.isGone) return;
    this.isGone = true;
    this.body.destroy();
    for (const listener of [...this.goneListeners]) listener();
    this.close();
  }

  write(frame: Uint8Array): boolean {
    return this.isGone ? true : this.options.send(frame);
  }

  drained(): Promise<void> {
    return this.isGone ? Promise.resolve() : this.options.drained();
  }

  onGone(listener: () => void): void {
    this.goneListeners.add(listener);
  }

  offGone(listener: () => void): void {
    this.goneListeners.delete(listener);
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  end(): void {
    this.over = true;
    this.close();
  }

  private message(): void {
    const data = this.packets.length === 1 ? this.packets[0]! : Buffer.concat(this.packets);
    const envelope = Buffer.allocUnsafe(5 + this.size);
    envelope[0] = 0;
    envelope.writeUInt32BE(this.size, 1);
    if (this.size > 0) envelope.set(data, 5);
    this.packets = [];
    this.size = 0;
    this.body.push(envelope);
    if (this.options.oneMessage) this.endOfStream();
  }

  private close(): void {
    this.options.forget(this.id);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
