// A client stream's messages, each of which must arrive within `idleMs` of the one before (or of
// the call's start): a client that opens a stream and stops sending would otherwise hold the
// stream, and whatever the handler keeps for it, for as long as its connection lives.
import { Code, SvcError, type Clock } from "../../../core/index.js";

export async function* withinIdle<T>(messages: AsyncIterator<T>, clock: Clock, idleMs: number, what: string): AsyncGenerator<T> {
  for (;;) {
    let timer: unknown;
    const silence = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => reject(new SvcError(Code.DeadlineExceeded, `${what}: nothing received for ${Math.round(idleMs / 1000)} s; ended`)), idleMs);
    });
    let next: IteratorResult<T>;
    try {
      next = await Promise.race([messages.next(), silence]);
    } finally {
      clock.clearTimeout(timer);
    }
    if (next.done === true) return;
    yield next.value;
  }
}
