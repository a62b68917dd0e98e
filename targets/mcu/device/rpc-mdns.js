// The device on the local network as svc-server is on it: Moddable's mDNS responder claims
// `<hostName>.local` and advertises the API port as `_rpc._tcp` under that name, with the TXT
// entry `grpc` that Viam's clients look for (bare-txt.js rewrites Moddable's `grpc=` to `grpc`
// and an empty string, in the same bytes). The host build maps rpc-mdns-none.js instead, so the
// responder itself runs only on a device.
import MDNS from "mdns";
import { bareTxt } from "bare-txt";

const TXT_KEY = "grpc";
// The socket's message for a datagram (modSocket.h, kSocketMsgDataReceived).
const DATAGRAM = 2;
const PTR = 12;
const SRV = 33;

// Where the name at `at` ends in place, or -1. Moddable's native DNS parser follows compression
// pointers with no limit, so a name that points at itself would hold the device in a loop for
// good; here each pointer must point before the one followed last (as a compressed name is
// written), so the walk ends, and every label must lie inside the packet.
function nameEnd(bytes, at) {
  let cursor = at;
  let limit = at;
  let end = -1;
  while (cursor < bytes.length) {
    const length = bytes[cursor];
    if (length === 0) return end < 0 ? cursor + 1 : end;
    if ((length & 0xc0) === 0xc0) {
      const target = ((length & 0x3f) << 8) | (bytes[cursor + 1] ?? 0xff);
      if (cursor + 1 >= bytes.length || target >= limit) return -1;
      if (end < 0) end = cursor + 2;
      cursor = limit = target;
    } else if (length > 63) return -1;
    else cursor += 1 + length;
  }
  return -1;
}

/** Whether every question and record the header counts is inside `packet`, with names that end. */
function readable(packet) {
  const bytes = new Uint8Array(packet);
  if (bytes.length < 12) return false;
  const count = (i) => (bytes[4 + 2 * i] << 8) | bytes[5 + 2 * i];
  let at = 12;
  for (let i = count(0); i > 0; i--) {
    at = nameEnd(bytes, at);
    if (at < 0 || at + 4 > bytes.length) return false;
    at += 4;
  }
  for (let i = count(1) + count(2) + count(3); i > 0; i--) {
    at = nameEnd(bytes, at);
    if (at < 0 || at + 10 > bytes.length) return false;
    const type = (bytes[at] << 8) | bytes[at + 1];
    const length = (bytes[at + 8] << 8) | bytes[at + 9];
    at += 10;
    if (at + length > bytes.length) return false;
    if (type === PTR && nameEnd(bytes, at) < 0) return false;
    if (type === SRV && (length < 7 || nameEnd(bytes, at + 6) < 0)) return false;
    at += length;
  }
  return true;
}

class RpcResponder extends MDNS {
  write(address, port, packet) {
    return super.write(address, port, packet === undefined ? packet : bareTxt(packet, TXT_KEY));
  }
  // Moddable's responder reads a packet on every socket callback, and what it throws ends the
  // firmware (an unhandled exception aborts XS). So only datagrams go to it (lin's UDP socket also
  // reports itself connected, once), only those its parser can read whole (anyone on the link may
  // send any bytes), and what it throws on one is the end of that datagram alone.
  callback(message, ...rest) {
    if (message !== DATAGRAM) return;
    const packet = super.read(ArrayBuffer);
    if (!readable(packet)) return;
    this.datagram = packet;
    try {
      super.callback(message, ...rest);
    } catch {
      // Nothing to answer.
    } finally {
      this.datagram = undefined;
    }
  }
  // The responder reads the datagram itself, after it has been checked here.
  read(type) {
    return this.datagram ?? super.read(type);
  }
}

/**
 * Claims `hostName`.local and, once it is the device's, advertises `_rpc._tcp` on `port`;
 * `onClaimed` hears the name claimed (another when the first is taken on the link).
 */
export function advertiseRpc({ hostName, port, trace, onClaimed }) {
  // An array holding the key as a property: Moddable's serializer reads an array's entries with
  // for-in and writes each as `key=value` (its branch for plain objects splits the key's letters).
  const txt = [];
  txt[TXT_KEY] = "";
  const responder = new RpcResponder({ hostName }, (message, value) => {
    if (message === MDNS.hostName && value) {
      trace(`info svc.mdns: advertising ${value}.local, _rpc._tcp on port ${port}\n`);
      onClaimed?.(value);
      responder.add({ name: "rpc", protocol: "tcp", port, txt });
    }
  });
  return responder;
}
