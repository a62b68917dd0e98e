// The little of the DNS wire format (RFC 1035) the captive portal's responder needs: read a
// query's header and its one question, and write a response echoing that question with at most
// one A record. Anything a query cannot be trusted to have (a truncated field, a label running
// past the end, a compression pointer that loops or points forward) makes the parse give up.
export const DNS_TYPE_A = 1;
export const DNS_TYPE_AAAA = 28;
export const DNS_TYPE_ANY = 255;
export const DNS_CLASS_IN = 1;
export const DNS_CLASS_ANY = 255;

export const RCODE = { noError: 0, formErr: 1, nxDomain: 3, notImp: 4, refused: 5 } as const;

const HEADER_LENGTH = 12;
const MAX_NAME_LENGTH = 255;
const MAX_POINTER_HOPS = 16;

export interface DnsQuestion {
  /** The labels as sent (case kept, so a response echoes the client's 0x20 case mixing). */
  labels: Uint8Array[];
  /** Lower-case dotted name without the final dot ("" for the root). */
  name: string;
  type: number;
  class: number;
}

export interface DnsQuery {
  id: number;
  opcode: number;
  recursionDesired: boolean;
  /** The question when the query holds exactly one and it could be read. */
  question: DnsQuestion | undefined;
  questionCount: number;
}

/** Reads a query; undefined for anything that is not one or cannot be read safely. */
export function parseDnsQuery(packet: Uint8Array): DnsQuery | undefined {
  if (packet.length < HEADER_LENGTH) return undefined;
  const flags = (packet[2]! << 8) | packet[3]!;
  if (flags & 0x8000) return undefined; // a response: answering it could start a loop
  const query: DnsQuery = {
    id: (packet[0]! << 8) | packet[1]!,
    opcode: (flags >> 11) & 0x0f,
    recursionDesired: (flags & 0x0100) !== 0,
    question: undefined,
    questionCount: (packet[4]! << 8) | packet[5]!,
  };
  if (query.questionCount !== 1) return query;
  const question = readQuestion(packet, HEADER_LENGTH);
  if (!question) return undefined;
  query.question = question;
  return query;
}

function readQuestion(packet: Uint8Array, start: number): DnsQuestion | undefined {
  const labels: Uint8Array[] = [];
  let pos = start;
  let end = -1;
  let hops = 0;
  let length = 1;
  for (;;) {
    if (pos >= packet.length) return undefined;
    const size = packet[pos]!;
    if ((size & 0xc0) === 0xc0) {
      if (pos + 1 >= packet.length) return undefined;
      const target = ((size & 0x3f) << 8) | packet[pos + 1]!;
      // Only strictly backwards, and only a few times: a forward or self pointer never ends.
      if (target >= pos || ++hops > MAX_POINTER_HOPS) return undefined;
      if (end < 0) end = pos + 2;
      pos = target;
      continue;
    }
    if (size & 0xc0) return undefined; // 0x40 and 0x80 label types are not defined for names
    if (size === 0) {
      if (end < 0) end = pos + 1;
      break;
    }
    if (pos + 1 + size > packet.length) return undefined;
    length += size + 1;
    if (length > MAX_NAME_LENGTH) return undefined;
    labels.push(packet.subarray(pos + 1, pos + 1 + size));
    pos += 1 + size;
  }
  if (end + 4 > packet.length) return undefined;
  return {
    labels,
    name: labels.map(asciiLower).join("."),
    type: (packet[end]! << 8) | packet[end + 1]!,
    class: (packet[end + 2]! << 8) | packet[end + 3]!,
  };
}

function asciiLower(label: Uint8Array): string {
  let out = "";
  for (const byte of label) out += String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte);
  return out;
}

export interface DnsResponse {
  rcode: number;
  /** IPv4 address (4 bytes) of the one A record, if any. */
  a?: Uint8Array;
  ttlSeconds?: number;
}

/** Writes the response to `query`: its question echoed, then the A record when there is one. */
export function serializeDnsResponse(query: DnsQuery, response: DnsResponse): Uint8Array {
  const question = query.question;
  const nameLength = question ? question.labels.reduce((n, label) => n + label.length + 1, 1) : 0;
  const answerLength = response.a && question ? 16 : 0;
  const out = new Uint8Array(HEADER_LENGTH + (question ? nameLength + 4 : 0) + answerLength);
  const view = new DataView(out.buffer);
  view.setUint16(0, query.id);
  // QR, the query's opcode, AA (the portal speaks for every name it answers), RD copied, RA.
  const flags = 0x8000 | (query.opcode << 11) | 0x0400 | (query.recursionDesired ? 0x0100 : 0) | 0x0080 | (response.rcode & 0x0f);
  view.setUint16(2, flags);
  view.setUint16(4, question ? 1 : 0);
  view.setUint16(6, answerLength ? 1 : 0);
  if (!question) return out;
  let pos = HEADER_LENGTH;
  for (const label of question.labels) {
    out[pos++] = label.length;
    out.set(label, pos);
    pos += label.length;
  }
  out[pos++] = 0;
  view.setUint16(pos, question.type);
  view.setUint16(pos + 2, question.class);
  pos += 4;
  if (answerLength && response.a) {
    view.setUint16(pos, 0xc000 | HEADER_LENGTH); // the name: a pointer to the question's
    view.setUint16(pos + 2, DNS_TYPE_A);
    view.setUint16(pos + 4, DNS_CLASS_IN);
    view.setUint32(pos + 6, response.ttlSeconds ?? 0);
    view.setUint16(pos + 10, 4);
    out.set(response.a.subarray(0, 4), pos + 12);
  }
  return out;
}
