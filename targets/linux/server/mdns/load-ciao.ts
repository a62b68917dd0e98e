// ciao, the mDNS responder, is loaded when discovery starts rather than with svc-server: a machine
// that listens on loopback or turns discovery off never needs it. Loading any part of ciao runs
// its index, which installs source-map-support for the whole process (Error.prepareStackTrace,
// and process.emit wrapped to print uncaught exceptions its own way and exit); svc-server keeps
// its own stack traces and crash handling, so both are put back once ciao is loaded.
import type { NetworkManager } from "@homebridge/ciao/lib/NetworkManager.js";
import type { Responder } from "@homebridge/ciao/lib/Responder.js";

export interface Ciao {
  readonly Responder: typeof Responder;
  readonly NetworkManager: typeof NetworkManager;
}

export async function loadCiao(): Promise<Ciao> {
  const prepareStackTrace = Error.prepareStackTrace;
  const emit = process.emit;
  try {
    // The record decoders register themselves; without them no answer on the network is read.
    await import("@homebridge/ciao/lib/coder/records/index.js");
    const [responder, network] = await Promise.all([import("@homebridge/ciao/lib/Responder.js"), import("@homebridge/ciao/lib/NetworkManager.js")]);
    return { Responder: responder.Responder, NetworkManager: network.NetworkManager };
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    process.emit = emit;
  }
}
