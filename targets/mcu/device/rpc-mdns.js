// The device on the local network as svc-server is on it: Moddable's mDNS responder claims
// `<hostName>.local` and advertises the API port as `_rpc._tcp` under that name, with the TXT
// entry `grpc` that Viam's clients look for (bare-txt.js rewrites Moddable's `grpc=` to `grpc`
// and an empty string, in the same bytes). The host build maps rpc-mdns-none.js instead, so the
// responder itself runs only on a device.
import MDNS from "mdns";
import { bareTxt } from "bare-txt";

const TXT_KEY = "grpc";

class RpcResponder extends MDNS {
  write(address, port, packet) {
    return super.write(address, port, packet === undefined ? packet : bareTxt(packet, TXT_KEY));
  }
}

/** Claims `hostName`.local and, once it is the device's, advertises `_rpc._tcp` on `port`. */
export function advertiseRpc({ hostName, port, trace }) {
  // An array holding the key as a property: Moddable's serializer reads an array's entries with
  // for-in and writes each as `key=value` (its branch for plain objects splits the key's letters).
  const txt = [];
  txt[TXT_KEY] = "";
  const responder = new RpcResponder({ hostName }, (message, value) => {
    if (message === MDNS.hostName && value) {
      trace(`info svc.mdns: advertising ${value}.local, _rpc._tcp on port ${port}\n`);
      responder.add({ name: "rpc", protocol: "tcp", port, txt });
    }
  });
  return responder;
}
