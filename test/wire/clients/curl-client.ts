// curl with bodies made by hand: gRPC over HTTP/2 with prior knowledge, gRPC-web and Connect over
// HTTP/1.1. The header dump (-D) carries the headers and, after them, HTTP/2 trailers; the body
// is read as the protocol frames it (wire-codec.ts). Abandoning a call kills the curl process.
// The body goes to a file in the client's own temporary folder (curl 7.88 crashes writing the
// header dump and the body to two pipes), removed when the client closes.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeAnswer, headerLines, type HttpAnswer } from "../wire-codec.js";
import type { AnyMethod, WireClient, WireClientKind, WireProtocol } from "../wire-client.js";
import { abandoned, handMadeCalls, transportFailure } from "./outcomes.js";

/** A bound on every curl run, so a server that never answers fails the case instead of hanging it. */
const CURL_MAX_SECONDS = 20;

export function curlKind(protocol: WireProtocol): WireClientKind {
  const http = protocol === "grpc" ? "2" : "1.1";
  return {
    name: `curl ${protocol === "grpc" ? "gRPC" : protocol === "grpc-web" ? "gRPC-web" : "Connect"}`,
    protocol,
    http,
    declaresLength: true,
    cannot:
      http === "2"
        ? {
            "early-answer":
              "curl 7.88 drops an answer followed by RST_STREAM(NO_ERROR) while it is still uploading and reports error 92 (RFC 9113 8.1 says to keep the answer)",
          }
        : {},
    open(target, credentials) {
      let folder: string | undefined;
      let calls = 0;
      const bodyFile = () => join((folder ??= mkdtempSync(join(tmpdir(), "wire-curl-"))), `answer-${++calls}`);
      const send = (method: AnyMethod, headers: Record<string, string>, body: Uint8Array, abortWhen?: Promise<unknown>) =>
        curl(`${target.url}/${method.parent.typeName}/${method.name}`, http, headers, body, bodyFile(), abortWhen).then((answer) =>
          answer === undefined ? abandoned : answer.failure !== undefined ? transportFailure(answer.failure) : decodeAnswer(protocol, method, answer),
        );
      return {
        ...handMadeCalls(protocol, credentials, send),
        close: async () => {
          if (folder) rmSync(folder, { recursive: true, force: true });
        },
      } satisfies WireClient;
    },
  };
}

/** The answer curl got, or undefined when the call was abandoned first. */
function curl(
  url: string,
  http: "1.1" | "2",
  headers: Record<string, string>,
  body: Uint8Array,
  answerFile: string,
  abortWhen: Promise<unknown> | undefined,
): Promise<(HttpAnswer & { failure?: string }) | undefined> {
  const args = ["-s", "-S", http === "2" ? "--http2-prior-knowledge" : "--http1.1", "-X", "POST", "--max-time", String(CURL_MAX_SECONDS)];
  for (const [key, value] of Object.entries(headers)) args.push("-H", `${key}: ${value}`);
  args.push("--data-binary", "@-", "-D", "-", "-o", answerFile, url);
  const child = spawn("curl", args, { stdio: ["pipe", "pipe", "pipe"] });
  const dump: Buffer[] = [];
  let err = "";
  child.stdout!.on("data", (d: Buffer) => dump.push(d));
  child.stderr!.on("data", (d) => (err += d));
  child.stdin!.on("error", () => {});
  child.stdin!.end(body);
  let killed = false;
  void abortWhen?.then(() => {
    killed = true;
    child.kill("SIGTERM");
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => {
      if (killed) return resolve(undefined);
      let body = new Uint8Array();
      try {
        body = new Uint8Array(readFileSync(answerFile));
      } catch {
        // No body was written.
      }
      const answer = parseDump(Buffer.concat(dump).toString("latin1"), body);
      resolve(answer ?? { status: 0, headers: {}, trailers: {}, body, failure: `curl exited with ${status}: ${err.trim()}` });
    });
  });
}

// Blocks separated by blank lines: interim answers (100 Continue), the answer's headers, then
// (HTTP/2) a block of trailers.
function parseDump(text: string, body: Uint8Array): HttpAnswer | undefined {
  const blocks = text.split(/\r?\n\r?\n/).filter((b) => b.trim() !== "");
  let at = -1;
  for (let i = 0; i < blocks.length; i++) if (/^HTTP\/\S+ [2-9]\d\d/.test(blocks[i]!)) at = i;
  if (at < 0) return undefined;
  const [statusLine = "", ...lines] = blocks[at]!.split(/\r?\n/);
  const trailerLines = blocks.slice(at + 1).join("\n");
  return {
    status: Number(statusLine.split(" ")[1]),
    headers: headerLines(lines.join("\n")),
    trailers: headerLines(trailerLines),
    body,
  };
}
