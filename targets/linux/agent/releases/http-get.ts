// GET over node:http and node:https, following redirects, but never from https down to http: a
// redirect must not take away what https vouched for. Not the global fetch: loading it (undici
// and its WebAssembly parser) adds about 20 MB to the agent's resident memory for good.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export interface HttpAnswer {
  status: number;
  statusText: string;
  header(name: string): string | undefined;
  /** The body, as a stream of chunks. */
  body: IncomingMessage;
  /** Drops the body (and the connection) unread. */
  cancel(): void;
  /** The whole body as UTF-8; fails, dropping the connection, once it passes `maxBytes`. */
  text(maxBytes: number): Promise<string>;
}

/** The body was larger than the reader takes. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

export interface HttpGetOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** How many redirects are followed. Default 5. */
  maxRedirects?: number;
}

export function httpGet(url: string | URL, options: HttpGetOptions = {}): Promise<HttpAnswer> {
  const target = new URL(url);
  const request = target.protocol === "https:" ? httpsRequest : target.protocol === "http:" ? httpRequest : undefined;
  if (!request) return Promise.reject(new Error(`${target.protocol} is not http or https`));
  return new Promise((resolve, reject) => {
    const req = request(target, { method: "GET", headers: options.headers, signal: options.signal }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        res.resume();
        const left = options.maxRedirects ?? 5;
        if (left <= 0) return reject(new Error(`too many redirects (last to ${location})`));
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          return reject(new Error(`redirected to ${JSON.stringify(location)}, which is not a URL`));
        }
        if (target.protocol === "https:" && next.protocol !== "https:") {
          return reject(new Error(`refused the redirect from ${target.href} to ${next.href}: it leaves https`));
        }
        httpGet(next, { ...options, maxRedirects: left - 1 }).then(resolve, reject);
        return;
      }
      resolve({
        status,
        statusText: res.statusMessage ?? "",
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(", ") : value;
        },
        body: res,
        cancel: () => res.destroy(),
        text: async (maxBytes) => {
          const declared = Number(res.headers["content-length"]);
          const tooLarge = () => new BodyTooLargeError(`the answer is larger than ${maxBytes} bytes`);
          if (declared > maxBytes) {
            res.destroy();
            throw tooLarge();
          }
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of res) {
            size += (chunk as Buffer).length;
            if (size > maxBytes) {
              res.destroy();
              throw tooLarge();
            }
            chunks.push(chunk as Buffer);
          }
          if (!res.complete) throw new Error("the connection closed before the whole answer arrived");
          return Buffer.concat(chunks).toString("utf8");
        },
      });
    });
    req.on("error", reject);
    req.end();
  });
}
