// The other machine on an mDNS test's link, run inside the peer network namespace (plain Node,
// so `ip netns exec NS node mdns-peer.mjs ...` needs no build):
//
//   listen ADDRESS...          joins 224.0.0.251 on the interfaces holding each ADDRESS and prints
//                              one JSON line per packet arriving on UDP port 5353: who sent it, its
//                              size, and the records it carries (name, type, ttl, data)
//   hold                       holds UDP port 5353 without sharing it (as a program that does not
//                              let an mDNS responder beside it would), prints "holding", waits
//   send KIND COUNT [TARGET] [FROM_PORT]
//                              sends COUNT packets of KIND to TARGET (224.0.0.251 by default) on
//                              port 5353, from FROM_PORT (any free one by default; 5353 is how an
//                              mDNS querier asks), as fast as the socket takes them; prints "sent N"
//   relay PORT                 answers DNS questions on 127.0.0.1:PORT by asking the group: each
//                              question goes to 224.0.0.251:5353 from a port of its own, and every
//                              answer that comes back within 2 s, from whoever sends it, is passed
//                              on. dig (BIND 9.18) connects its socket to the server it asks, so it
//                              never sees an answer to a question sent to the group itself
//
// KINDs: `query` (a well-formed PTR question for _rpc._tcp.local), `garbage` (random bytes),
// `malformed` (DNS headers that lie: counts past the end, a name pointing at itself, a label
// longer than the packet, a truncated question), `oversize` (a 24 KB datagram of 4,000 questions).
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";

const MDNS_PORT = 5353;
const GROUP = "224.0.0.251";
const TYPES = { 1: "A", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 47: "NSEC" };

/** A name at `offset`, following compression pointers (at most 32, so a loop cannot hang us). */
function readName(buffer, offset) {
  const labels = [];
  let at = offset;
  let end;
  for (let jumps = 0; jumps < 32; ) {
    const length = buffer[at];
    if (length === undefined) throw new Error("name runs past the packet");
    if (length === 0) return { name: labels.join("."), end: end ?? at + 1 };
    if ((length & 0xc0) === 0xc0) {
      end ??= at + 2;
      at = ((length & 0x3f) << 8) | buffer[at + 1];
      jumps += 1;
      continue;
    }
    labels.push(buffer.toString("utf8", at + 1, at + 1 + length));
    at += 1 + length;
  }
  throw new Error("name compression loops");
}

function readData(buffer, type, start, length) {
  if (type === 12) return readName(buffer, start).name;
  if (type === 1) return [...buffer.subarray(start, start + 4)].join(".");
  if (type === 33) return { port: buffer.readUInt16BE(start + 4), target: readName(buffer, start + 6).name };
  if (type === 16) {
    const strings = [];
    for (let at = start; at < start + length; at += 1 + buffer[at]) strings.push(buffer.toString("utf8", at + 1, at + 1 + buffer[at]));
    return strings;
  }
  return undefined;
}

/** The header, questions and records of a DNS message. */
function parse(buffer) {
  const count = (i) => buffer.readUInt16BE(4 + 2 * i);
  const flags = buffer.readUInt16BE(2);
  let at = 12;
  const questions = [];
  for (let i = 0; i < count(0); i++) {
    const { name, end } = readName(buffer, at);
    questions.push({ name, type: TYPES[buffer.readUInt16BE(end)] ?? buffer.readUInt16BE(end) });
    at = end + 4;
  }
  const records = [];
  const total = count(1) + count(2) + count(3);
  for (let i = 0; i < total; i++) {
    const { name, end } = readName(buffer, at);
    const type = buffer.readUInt16BE(end);
    const ttl = buffer.readUInt32BE(end + 4);
    const length = buffer.readUInt16BE(end + 8);
    records.push({ name, type: TYPES[type] ?? type, ttl, data: readData(buffer, type, end + 10, length) });
    at = end + 10 + length;
  }
  return { response: (flags & 0x8000) !== 0, questions, records };
}

function listen(addresses) {
  const socket = dgram.createSocket({ type: "udp4", reuseAddr: true });
  socket.on("message", (message, from) => {
    let parsed;
    try {
      parsed = parse(message);
    } catch (error) {
      parsed = { unreadable: String(error) };
    }
    process.stdout.write(`${JSON.stringify({ from: from.address, port: from.port, size: message.length, ...parsed })}\n`);
  });
  socket.bind(MDNS_PORT, () => {
    for (const address of addresses) socket.addMembership(GROUP, address);
    process.stdout.write("listening\n");
  });
}

function hold() {
  const socket = dgram.createSocket({ type: "udp4", reuseAddr: false });
  socket.bind(MDNS_PORT, () => process.stdout.write("holding\n"));
}

function relay(port) {
  const front = dgram.createSocket("udp4");
  front.on("message", (question, asker) => {
    const out = dgram.createSocket("udp4");
    out.on("message", (answer) => front.send(answer, asker.port, asker.address));
    out.bind(0, () => out.send(question, MDNS_PORT, GROUP));
    setTimeout(() => out.close(), 2000);
  });
  front.bind(port, "127.0.0.1", () => process.stdout.write("relaying\n"));
}

function encodeName(name) {
  return Buffer.concat([...name.split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])), Buffer.from([0])]);
}

function header(id, questions, answers = 0) {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt16BE(id, 0);
  bytes.writeUInt16BE(questions, 4);
  bytes.writeUInt16BE(answers, 6);
  return bytes;
}

const PTR_QUESTION = Buffer.concat([encodeName("_rpc._tcp.local"), Buffer.from([0, 12, 0, 1])]);

/** Headers that lie about what follows them. */
const MALFORMED = [
  Buffer.concat([header(1, 65535, 65535), PTR_QUESTION]),
  Buffer.concat([header(2, 1), Buffer.from([0xc0, 12, 0, 12, 0, 1])]),
  Buffer.concat([header(3, 1), Buffer.from([63, 0x61, 0x62])]),
  Buffer.concat([header(4, 2), PTR_QUESTION.subarray(0, 9)]),
  Buffer.concat([header(5, 0, 1), encodeName("_rpc._tcp.local"), Buffer.from([0, 12, 0, 1, 0, 0, 0, 10, 0xff, 0xff, 0xc0])]),
  Buffer.from([0x12]),
  Buffer.alloc(0),
];

function packet(kind, n) {
  if (kind === "query") return Buffer.concat([header(n & 0xffff, 1), PTR_QUESTION]);
  if (kind === "garbage") return randomBytes(1 + (n % 1400));
  if (kind === "malformed") return MALFORMED[n % MALFORMED.length];
  if (kind === "oversize") return Buffer.concat([header(n & 0xffff, 4000), PTR_QUESTION, ...Array.from({ length: 3999 }, () => Buffer.from([0xc0, 12, 0, 12, 0, 1]))]);
  throw new Error(`unknown kind ${kind}`);
}

async function send(kind, count, target = GROUP, fromPort = 0) {
  const socket = dgram.createSocket({ type: "udp4", reuseAddr: true });
  await new Promise((resolve) => socket.bind(fromPort, resolve));
  let sent = 0;
  for (let n = 0; n < count; n++) {
    const message = packet(kind, n);
    // Waits for each send, so a flood is as fast as the socket drains rather than a heap of buffers.
    await new Promise((resolve) => socket.send(message, MDNS_PORT, target, (error) => resolve(error)));
    sent += 1;
  }
  socket.close();
  process.stdout.write(`sent ${sent}\n`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "listen") listen(rest);
else if (mode === "hold") hold();
else if (mode === "send") await send(rest[0], Number(rest[1]), rest[2], Number(rest[3] ?? 0));
else if (mode === "relay") relay(Number(rest[0]));
else {
  process.stderr.write("usage: mdns-peer.mjs listen ADDRESS... | hold | send KIND COUNT [TARGET] [FROM_PORT] | relay PORT\n");
  process.exit(2);
}
