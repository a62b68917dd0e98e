// How the page reaches its machine. The API through the official Viam SDK: gRPC-web straight to
// the port when the page was opened under a local name (the SDK dials directly only a host with
// "local" in it), otherwise WebRTC with the machine's own signaling on the same port. The page's
// own endpoints (/page/api/...) with the token Authenticate gives for the API key, asked again
// when it has run out. The key is held in memory only: reloading the page asks for it again.
import { RobotClient, type Credential } from "@viamrobotics/sdk";

export interface MachineInfo {
  /** The machine has API keys: log in first. */
  auth: boolean;
  webrtc: boolean;
}

export interface ApiKey {
  id: string;
  key: string;
}

export interface Session {
  robot: RobotClient;
  /** Reaches the page's endpoints, with a token when the machine has keys. */
  api: PageApi;
  /** "gRPC-web" or "WebRTC". */
  via: string;
}

export interface PageApi {
  get<T>(path: string): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
}

/** An answer of the page's endpoints that was not 2xx: its words, and what else it said. */
export class PageApiError extends Error {
  override name = "PageApiError";
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function machineInfo(): Promise<MachineInfo> {
  const answer = await fetch("/page/api/machine", { cache: "no-store" });
  if (!answer.ok) throw new Error(`the machine did not say how to log in (HTTP ${answer.status})`);
  return (await answer.json()) as MachineInfo;
}

/** A token for `key`, from the machine's AuthService (Connect's JSON form of the call). */
async function authenticate(key: ApiKey): Promise<string> {
  const answer = await fetch("/proto.rpc.v1.AuthService/Authenticate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ entity: key.id, credentials: { type: "api-key", payload: key.key } }),
  });
  const body = (await answer.json().catch(() => ({}))) as { accessToken?: string; message?: string };
  if (!answer.ok || !body.accessToken) throw new Error(`login refused: ${body.message ?? `HTTP ${answer.status}`}`);
  return body.accessToken;
}

export async function openSession(info: MachineInfo, key: ApiKey | undefined): Promise<Session> {
  let token = key ? await authenticate(key) : undefined;
  const robot = new RobotClient();
  const credentials: Credential | undefined = key && { type: "api-key", payload: key.key, authEntity: key.id };
  const direct = location.hostname.includes("local");
  if (!direct && !info.webrtc) throw new Error(`open the page as http://localhost:${location.port}/ on the machine: WebRTC is off and the SDK dials directly only a local name`);
  if (direct) await robot.dial({ host: location.origin, noReconnect: true, ...(credentials ? { credentials } : {}) });
  else await robot.dial({ host: location.host, signalingAddress: location.origin, iceServers: [], noReconnect: true, ...(credentials ? { credentials } : {}) });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const send = () =>
      fetch(path, {
        method,
        cache: "no-store",
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let answer = await send();
    if (answer.status === 401 && key) {
      token = await authenticate(key);
      answer = await send();
    }
    const parsed = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
    if (!answer.ok) throw new PageApiError(answer.status, String(parsed.error ?? `HTTP ${answer.status}`), parsed);
    return parsed as T;
  };
  return { robot, via: direct ? "gRPC-web" : "WebRTC", api: { get: (path) => call("GET", path), put: (path, body) => call("PUT", path, body) } };
}
