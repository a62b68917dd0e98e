// Log lines about what a caller or a machine did, a few per address per minute and a bound for
// every address together (the same limit svc-server puts on its peers' lines): a client repeating
// the same mistake (a machine reconnecting in a loop, two machines sharing one part's key and
// taking each other's place) cannot fill the log and push out what came before. Lines held back
// are counted, and the count rides on the next line written for that address. Time is the
// injected clock's.
import type { Clock } from "../../../core/index.js";
import { createPeerLogLimit } from "../../../node/rpc/peer-log-limit.js";

export interface AddressLogOptions {
  readonly clock: Clock;
  readonly log: (line: string) => void;
  /** Lines per address per window; 5 by default. */
  readonly linesPerAddress?: number;
  /** Lines per window from every address together; 100 by default. */
  readonly linesInAll?: number;
  /** 60 s by default. */
  readonly windowMs?: number;
}

/** Writes `line` about `address` unless its share of the log is spent. */
export type AddressLog = (address: string, line: string) => void;

export function createAddressLog(options: AddressLogOptions): AddressLog {
  const limit = createPeerLogLimit({
    now: () => options.clock.now(),
    linesPerWindow: options.linesPerAddress,
    totalLinesPerWindow: options.linesInAll,
    windowMs: options.windowMs,
  });
  return (address, line) => {
    const admitted = limit.admit(address);
    if (!admitted) return;
    const held = admitted.held_back ? ` (${String(admitted.held_back)} earlier line(s) from ${address || "this address"} held back)` : "";
    options.log(`${line}${held}`);
  };
}
