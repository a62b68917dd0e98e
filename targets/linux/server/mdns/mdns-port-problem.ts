// Whether UDP port 5353 can be shared here. The responder binds it once per interface with
// SO_REUSEADDR, as mDNS stacks do, so they live side by side; a program holding the port without
// sharing it makes those binds fail, and the responder then only prints the failure and never
// binds again. So the port is tried first, the same way, and a failure said in words.
import { createSocket } from "node:dgram";

export const MDNS_PORT = 5353;

/** Undefined when the port can be shared; otherwise what is wrong, in words. */
export function mdnsPortProblem(port = MDNS_PORT): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket({ type: "udp4", reuseAddr: true });
    const release = () => {
      try {
        socket.close();
      } catch {
        // Never bound: nothing to release.
      }
    };
    socket.once("error", (error) => {
      release();
      resolve(`UDP port ${port} cannot be opened (${error.message}); another program holds it without sharing it`);
    });
    socket.bind(port, () => {
      release();
      resolve(undefined);
    });
  });
}
