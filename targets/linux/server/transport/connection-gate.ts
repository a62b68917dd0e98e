// The cap on connections: at most so many at once from one remote address, and from everyone
// together (kept below the process's open-file limit by limits.ts). A connection over either cap
// is closed as soon as it is accepted, before a byte is read, so slow or idle connections from
// one client cannot take every socket the server has and lock the others out.
import type { Socket } from "node:net";

export interface ConnectionGate {
  /** Counts the socket in, or destroys it when a cap is reached; false when destroyed. */
  admit(socket: Socket): boolean;
}

export interface ConnectionGateOptions {
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  /** Told of each connection refused (the caller bounds how much of this it logs). */
  readonly onRefused?: (address: string, why: string) => void;
}

export function createConnectionGate(options: ConnectionGateOptions): ConnectionGate {
  const { maxConnections, maxConnectionsPerAddress } = options;
  const perAddress = new Map<string, number>();
  let open = 0;

  const refuse = (socket: Socket, address: string, why: string) => {
    socket.destroy();
    options.onRefused?.(address, why);
    return false;
  };

  return {
    admit(socket) {
      const address = socket.remoteAddress ?? "";
      const fromAddress = perAddress.get(address) ?? 0;
      if (open >= maxConnections) return refuse(socket, address, `the server holds ${open} connections, its limit`);
      if (fromAddress >= maxConnectionsPerAddress) {
        return refuse(socket, address, `${fromAddress} connections from this address are open, the limit for one address`);
      }
      open++;
      perAddress.set(address, fromAddress + 1);
      socket.once("close", () => {
        open--;
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left === 0) perAddress.delete(address);
        else perAddress.set(address, left);
      });
      return true;
    },
  };
}
