// The control page's endpoints called as a script (or another site) would call them: plain HTTP
// with the headers given, and a token from the machine's AuthService for an API key.
import { request } from "node:http";
export interface PageAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export async function pageCall(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<PageAnswer> {
  // node:http, which sends the headers as given (fetch would put its own Host).
  const text = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(new URL(path, url), { method: init.method ?? "GET", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text.text) as Record<string, unknown>;
  } catch {
    // Not JSON: the text says it.
  }
  return { status: text.status, body, text: text.text };
}

/** A token for an API key, from Authenticate in Connect's JSON form. */
export async function tokenFor(url: string, key: { id: string; key: string }): Promise<string> {
  const answer = await pageCall(url, "/proto.rpc.v1.AuthService/Authenticate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ entity: key.id, credentials: { type: "api-key", payload: key.key } }),
  });
  if (typeof answer.body.accessToken !== "string") throw new Error(`no token: ${answer.text}`);
  return answer.body.accessToken;
}

/** A PUT of a configuration text to the page's endpoint, as the page sends it. */
export function putConfig(url: string, text: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
  return pageCall(url, "/page/api/config", { method: "PUT", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ text }) });
}
