// The captive portal's DNS server (UDP): every name, or only `*.setup` names when redirection is
// off, resolves to the device, so a phone on the hotspot opens the portal. Names it does not
// answer get REFUSED rather than NXDOMAIN: the device is no authority on them and has no upstream
// to ask, and REFUSED lets a client move on to another resolver instead of caching "no such
// name". AAAA and other types get an empty NOERROR, so clients fall back to the A answer.
import { createSocket, type Socket } from "node:dgram";
import type { Logger } from "../../../../../core/index.js";
import {
  DNS_CLASS_ANY,
  DNS_CLASS_IN,
  DNS_TYPE_A,
  DNS_TYPE_ANY,
  RCODE,
  parseDnsQuery,
  serializeDnsResponse,
} from "./dns-message.js";

/** Short, so names stop pointing at the device soon after provisioning ends. */
export const DNS_ANSWER_TTL_SECONDS = 5;

export interface DnsAnswerPolicy {
  /** The IPv4 address every answered name resolves to. */
  address: string;
  /** true: every name; false: only `setup` and names ending in `.setup`. */
  redirectAll: boolean;
}

export function ipv4Bytes(address: string): Uint8Array | undefined {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return Uint8Array.from(parts.map(Number));
}

/** The response to one packet, or undefined when it is to be ignored. */
export function answerDnsPacket(packet: Uint8Array, policy: DnsAnswerPolicy, address = ipv4Bytes(policy.address)): Uint8Array | undefined {
  if (!address) return undefined;
  const query = parseDnsQuery(packet);
  if (!query) return undefined;
  if (query.opcode !== 0) return serializeDnsResponse(query, { rcode: RCODE.notImp });
  const question = query.question;
  if (!question) return serializeDnsResponse(query, { rcode: RCODE.formErr });
  if (question.class !== DNS_CLASS_IN && question.class !== DNS_CLASS_ANY) {
    return serializeDnsResponse(query, { rcode: RCODE.refused });
  }
  const name = question.name;
  if (!policy.redirectAll && name !== "setup" && !name.endsWith(".setup")) {
    return serializeDnsResponse(query, { rcode: RCODE.refused });
  }
  if (question.type === DNS_TYPE_A || question.type === DNS_TYPE_ANY) {
    return serializeDnsResponse(query, { rcode: RCODE.noError, a: address, ttlSeconds: DNS_ANSWER_TTL_SECONDS });
  }
  return serializeDnsResponse(query, { rcode: RCODE.noError });
}

export interface DnsResponderOptions extends DnsAnswerPolicy {
  /** Address to listen on (IPv4). */
  host: string;
  /** UDP port; 0 picks a free one. */
  port: number;
  logger: Logger;
}

export interface DnsResponder {
  /** Listens; resolves with the port. */
  start(): Promise<number>;
  stop(): Promise<void>;
}

export function createDnsResponder(options: DnsResponderOptions): DnsResponder {
  const { logger } = options;
  const address = ipv4Bytes(options.address);
  if (!address) throw new TypeError(`dns responder: address must be an IPv4 address, got ${JSON.stringify(options.address)}`);
  const policy: DnsAnswerPolicy = { address: options.address, redirectAll: options.redirectAll };
  let socket: Socket | undefined;

  function onMessage(this: Socket, packet: Buffer, from: { address: string; port: number }): void {
    let response: Uint8Array | undefined;
    try {
      response = answerDnsPacket(packet, policy, address);
    } catch (err) {
      logger.warn("dns query could not be answered", { from: from.address, error: String(err) });
      return;
    }
    if (!response) return;
    this.send(response, from.port, from.address, (err) => {
      if (err) logger.debug("dns answer could not be sent", { to: from.address, error: err.message });
    });
  }

  return {
    start() {
      if (socket) return Promise.reject(new Error("dns responder: already started"));
      const s = createSocket({ type: "udp4" });
      socket = s;
      return new Promise<number>((resolve, reject) => {
        const failed = (err: Error) => {
          socket = undefined;
          s.close();
          reject(new Error(`dns responder: cannot listen on ${options.host}:${options.port}/udp: ${err.message}`));
        };
        s.once("error", failed);
        s.bind(options.port, options.host, () => {
          s.off("error", failed);
          s.on("error", (err) => logger.warn("dns responder socket error", { error: err.message }));
          s.on("message", onMessage);
          const port = s.address().port;
          logger.info("dns responder listening", { host: options.host, port, redirect_all: options.redirectAll });
          resolve(port);
        });
      });
    },
    stop() {
      const s = socket;
      socket = undefined;
      if (!s) return Promise.resolve();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
