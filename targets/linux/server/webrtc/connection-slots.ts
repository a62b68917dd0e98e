// How many WebRTC connections the machine keeps: at most `maxConnections` in all, of which at most
// `maxPending` are still being set up, `maxPendingPerCaller` of those from one address (so one
// caller cannot hold every slot). A slot is taken for an offer and moves from pending to open, or
// is given back.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../../core/index.js";

export interface SlotLimits {
  readonly maxConnections: number;
  readonly maxPending: number;
  readonly maxPendingPerCaller: number;
}

export interface ConnectionSlot {
  readonly state: "pending" | "open" | "closed";
  open(): void;
  close(): void;
}

export interface ConnectionSlots {
  /** Throws RESOURCE_EXHAUSTED, saying which bound, when `address` may not start another. */
  check(address: string): void;
  take(address: string): ConnectionSlot;
}

export function createConnectionSlots(limits: SlotLimits): ConnectionSlots {
  let pending = 0;
  let open = 0;
  const pendingFrom = new Map<string, number>();
  const countFrom = (address: string, change: number) => {
    const count = (pendingFrom.get(address) ?? 0) + change;
    if (count > 0) pendingFrom.set(address, count);
    else pendingFrom.delete(address);
  };
  const exhausted = (message: string) => new ConnectError(message, Code.ResourceExhausted);

  return {
    check(address) {
      if ((pendingFrom.get(address) ?? 0) >= limits.maxPendingPerCaller) {
        throw exhausted(`too many WebRTC connections being set up from ${address} (at most ${limits.maxPendingPerCaller})`);
      }
      if (pending >= limits.maxPending) throw exhausted(`too many WebRTC connections being set up (at most ${limits.maxPending})`);
      if (open + pending >= limits.maxConnections) throw exhausted(`too many WebRTC connections (at most ${limits.maxConnections})`);
    },
    take(address) {
      pending++;
      countFrom(address, 1);
      let state: ConnectionSlot["state"] = "pending";
      const leave = () => {
        if (state === "pending") {
          pending--;
          countFrom(address, -1);
        }
        if (state === "open") open--;
      };
      return {
        get state() {
          return state;
        },
        open() {
          if (state !== "pending") return;
          leave();
          open++;
          state = "open";
        },
        close() {
          leave();
          state = "closed";
        },
      };
    },
  };
}
