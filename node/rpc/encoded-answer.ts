// An answer that comes with its encoding. A handler that already holds the bytes of what it
// answers (because most of the answer is shared between callers and was encoded once) hands them
// over with the message; the lean path writes those bytes instead of encoding the message again.
// The message itself stays whole and correct: interceptors read it, and connect's path, which
// does not look here, encodes it as usual. The bytes must be an encoding of exactly that message.
const encodings = new WeakMap<object, Uint8Array>();

/** `message`, known to encode as `bytes`. */
export function withEncoding<T extends object>(message: T, bytes: Uint8Array): T {
  encodings.set(message, bytes);
  return message;
}

/** The encoding a handler gave with `message`, if it gave one. */
export function encodingOf(message: object): Uint8Array | undefined {
  return encodings.get(message);
}
