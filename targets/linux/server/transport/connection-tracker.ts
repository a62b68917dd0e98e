// Knows every connection the API server holds and what it is doing, so closing the server can be
// graceful (HTTP/2 sessions get GOAWAY and finish their streams, idle HTTP/1.1 keep-alive
// connections are dropped, busy ones close after their response) and then forceful at a deadline.
import type { Http2Session } from "node:http2";
import type { Socket } from "node:net";
import type { HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";

export interface ConnectionTracker {
  /** Every accepted socket, whatever it turns out to speak. */
  accepted(socket: Socket): void;
  /** An accepted socket that has not yet said which protocol it speaks. */
  undecided(socket: Socket): void;
  /** The socket said which protocol it speaks (HTTP/1.1 sockets are also reported to http1). */
  decided(socket: Socket): void;
  /** A socket that speaks HTTP/1.1 (the TLS socket when encrypted). */
  http1(socket: Socket): void;
  /** An HTTP/2 session. */
  http2(session: Http2Session): void;
  /** Called for each HTTP/1.1 request, to know which connections are busy. */
  http1Request(req: HttpRequest, res: HttpResponse): void;
  /** Starts closing everything; at `deadlineMs` destroys what is left. Returns a cancel for the deadline. */
  drain(deadlineMs: number): () => void;
}

export function createConnectionTracker(): ConnectionTracker {
  const sockets = new Set<Socket>();
  const undecided = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const inFlight = new Map<Socket, number>();
  let closing = false;

  const finished = (socket: Socket) => {
    const count = inFlight.get(socket);
    if (count === undefined) return;
    inFlight.set(socket, count - 1);
    if (closing && count === 1) socket.end();
  };

  return {
    accepted(socket) {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      // An error before a server owns the socket would otherwise be thrown; 'close' follows it.
      socket.on("error", () => {});
    },
    undecided(socket) {
      undecided.add(socket);
      socket.once("close", () => undecided.delete(socket));
    },
    decided(socket) {
      undecided.delete(socket);
    },
    http1(socket) {
      undecided.delete(socket);
      if (closing) {
        socket.destroy();
        return;
      }
      inFlight.set(socket, 0);
      socket.once("close", () => inFlight.delete(socket));
    },
    http2(session) {
      if (closing) {
        session.close();
        return;
      }
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
    },
    http1Request(req, res) {
      const socket = req.socket;
      const count = inFlight.get(socket);
      if (count === undefined) return;
      inFlight.set(socket, count + 1);
      if (closing) res.setHeader("connection", "close");
      res.once("close", () => finished(socket));
    },
    drain(deadlineMs) {
      closing = true;
      for (const session of sessions) session.close();
      for (const socket of undecided) socket.destroy();
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
      const deadline = setTimeout(() => {
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
      }, deadlineMs);
      return () => clearTimeout(deadline);
    },
  };
}
