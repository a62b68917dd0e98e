// GET over node:http and node:https, following redirects. Not the global fetch: loading it (undici
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
  text(): Promise<string>;
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
        httpGet(new URL(location, target), { ...options, maxRedirects: left - 1 }).then(resolve, reject);
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
        text: async () => {
          let text = "";
          res.setEncoding("utf8");
          for await (const chunk of res) text += chunk as string;
          if (!res.complete) throw new Error("the connection closed before the whole answer arrived");
          return text;
        },
      });
    });
    req.on("error", reject);
    req.end();
  });
}
