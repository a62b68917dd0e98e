// Another host on the device's link, run in the peer network namespace (plain Node, as
// `ip netns exec NS node mdns-neighbour.mjs ...`), for what avahi does not do: ask one question
// at a time, and send what no resolver sends.
//
//   ask NAME TYPE         sends one question (TYPE: A, PTR, SRV, TXT or ANY) for NAME, as a
//                         querier that listens on port 5353 asks (RFC 6762 5.2); prints "asked"
//   hostile COUNT TARGET  sends COUNT of each datagram that a DNS parser which trusts the bytes
//                         would loop on or read past the end of (names whose compression
//                         pointers point at themselves or at each other, in a question, in a
//                         PTR's and an SRV's data; counts past the end; a label longer than the
//                         packet; one byte) to TARGET port 5353; prints "sent N". No empty
//                         datagram: Moddable's lin socket takes a read of 0 bytes as the peer
//                         closing and closes itself, which a device's (lwIP) does not
//
// What comes back is heard by test/helpers/mdns-peer.mjs's listener beside it.
import dgram from "node:dgram";

const MDNS_PORT = 5353;
const GROUP = "224.0.0.251";
const TYPES = { A: 1, PTR: 12, TXT: 16, SRV: 33, ANY: 255 };

function encodeName(name) {
  const labels = name.split(".").map((label) => Buffer.concat([Buffer.from([Buffer.byteLength(label)]), Buffer.from(label)]));
  return Buffer.concat([...labels, Buffer.from([0])]);
}

function header(flags, questions, answers) {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt16BE(flags, 2);
  bytes.writeUInt16BE(questions, 4);
  bytes.writeUInt16BE(answers, 6);
  return bytes;
}

const RPC_NAME = encodeName("_rpc._tcp.local");

/** A record named _rpc._tcp.local of `type` whose data is a name pointing at itself, after `prefix`. */
function selfPointingRecord(type, prefix) {
  const at = 12 + RPC_NAME.length + 10 + prefix.length;
  const data = Buffer.concat([prefix, Buffer.from([0xc0 | (at >> 8), at & 0xff])]);
  return Buffer.concat([header(0x8400, 0, 1), RPC_NAME, Buffer.from([0, type, 0, 1, 0, 0, 0, 120, 0, data.length]), data]);
}

const HOSTILE = [
  Buffer.concat([header(0, 1, 0), Buffer.from([0xc0, 12, 0, 1, 0, 1])]),
  Buffer.concat([header(0, 2, 0), Buffer.from([0xc0, 18, 0, 1, 0, 1, 0xc0, 12, 0, 1, 0, 1])]),
  selfPointingRecord(12, Buffer.alloc(0)),
  selfPointingRecord(33, Buffer.from([0, 0, 0, 0, 0x1f, 0x90])),
  Buffer.concat([header(0, 65535, 65535), RPC_NAME, Buffer.from([0, 12, 0, 1])]),
  Buffer.concat([header(0, 1, 0), Buffer.from([63, 0x61, 0x62])]),
  Buffer.from([0x12]),
];

async function hostile(count, target) {
  const socket = dgram.createSocket({ type: "udp4", reuseAddr: true });
  await new Promise((resolve) => socket.bind(0, resolve));
  let sent = 0;
  for (let n = 0; n < count; n++) {
    for (const packet of HOSTILE) {
      await new Promise((resolve) => socket.send(packet, MDNS_PORT, target, resolve));
      sent += 1;
    }
  }
  socket.close();
  process.stdout.write(`sent ${sent}\n`);
}

function ask(name, type) {
  if (!(type in TYPES)) throw new Error(`unknown type ${type}`);
  const question = Buffer.concat([header(0, 1, 0), encodeName(name), Buffer.from([0, TYPES[type], 0, 1])]);
  const socket = dgram.createSocket({ type: "udp4", reuseAddr: true });
  socket.bind(MDNS_PORT, () =>
    socket.send(question, MDNS_PORT, GROUP, () => {
      process.stdout.write("asked\n");
      socket.close();
    }),
  );
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "ask") ask(rest[0], rest[1]);
else if (mode === "hostile") await hostile(Number(rest[0]), rest[1]);
else {
  process.stderr.write("usage: mdns-neighbour.mjs ask NAME TYPE | hostile COUNT TARGET\n");
  process.exit(2);
}
