// One call's stream on a WebRTC data channel, as the channel server gives it to the call: frames
// written to the client, whether the client is still there, and the end of the call.
export interface CallStream {
  readonly id: bigint;
  /** The client reset the stream, or the connection closed. */
  readonly gone: boolean;
  /** Sends one frame; false when the channel's buffer is full and the writer should wait for drained(). */
  write(frame: Uint8Array): boolean;
  /** Resolves when the channel can take more, or the stream is gone. */
  drained(): Promise<void>;
  /** `listener` hears once when the call ends: answered, reset by the client, or the connection gone. */
  onClose(listener: () => void): void;
  /** `listener` hears once if the stream goes before the call ends. */
  onGone(listener: () => void): void;
  offGone(listener: () => void): void;
  /** The answer is complete (trailers written): the stream is forgotten. */
  end(): void;
}
