// What the MCU's HTTP exchange and its transports pass between them: a request's head, then an
// arrival that says how much body to read and turns the body into an answer.
import { encodeUtf8 } from "./codec/index.js";

/** What a transport knows of a request before its body. */
export interface HttpHead {
  method: string;
  /** The request target, query included. */
  path: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** The peer's address; undefined or "" when the transport does not know it. */
  peer?: string;
}

export interface HttpRequest extends HttpHead {
  body: Uint8Array;
}

export interface HttpResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface HttpCall {
  readonly done: Promise<HttpResponse>;
  /** The client went away. */
  cancel(): void;
}

/** A request whose head has been read. */
export interface HttpArrival {
  /** Body bytes to read; 0 when the answer does not depend on the body (read and drop any). */
  readonly limit: number;
  /** The body, or undefined when it went past `limit` and was dropped. */
  finish(body: Uint8Array | undefined): HttpCall;
}

export type HeaderList = Array<[string, string]>;

export function answer(status: number, headers: HeaderList, body: Uint8Array): HttpCall {
  return { done: Promise.resolve({ status, headers, body }), cancel: () => {} };
}

export function text(status: number, message: string, headers: HeaderList = []): HttpCall {
  return answer(status, [["content-type", "text/plain; charset=utf-8"], ...headers], encodeUtf8(`${message}\n`));
}

/** An arrival answered from its head alone: its body, if any, is read and dropped. */
export function answered(call: HttpCall): HttpArrival {
  return { limit: 0, finish: () => call };
}

/** An arrival that reads up to `limit` body bytes, then is `use`d, or answered by `past`. */
export function accepting(limit: number, use: (body: Uint8Array) => HttpCall, past: () => HttpCall): HttpArrival {
  return { limit, finish: (body) => (body === undefined || body.length > limit ? past() : use(body)) };
}
