// Reaching a cloud-managed machine over TLS as a client that trusts svc-cloud's authority would:
// the authority's certificate from svc-cloud's `/ca.pem`, the machine's name from its part
// (`local_fqdn`, which names the port on 127.0.0.1 here, as a local name server would), and the
// certificate the port presents for that name, checked against the authority.
import type { LookupFunction } from "node:net";
import { connect } from "node:tls";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";

export async function cloudAuthority(cloudUrl: string): Promise<string> {
  const res = await fetch(`${cloudUrl}/ca.pem`);
  if (!res.ok) throw new Error(`svc-cloud's /ca.pem answered ${res.status}`);
  return res.text();
}

/** Every name resolves to 127.0.0.1, where the machine under test listens. */
export const toLoopback: LookupFunction = (_host, options, callback) => {
  if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
};

/** The certificate the port presents for `name`: whether the authority vouches for it, and the names it holds. */
export function presentedCertificate(port: number, name: string, ca: string): Promise<{ authorized: boolean; error: string; names: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: name, ca, rejectUnauthorized: false, ALPNProtocols: ["h2"] }, () => {
      const peer = socket.getPeerCertificate();
      resolve({ authorized: socket.authorized, error: String(socket.authorizationError ?? ""), names: peer.subjectaltname ?? "" });
      socket.end();
    });
    socket.once("error", reject);
  });
}

/** The machine's RobotService over TLS at `https://NAME:PORT`, the authority trusted. */
export function robotOverTls(name: string, port: number, ca: string): Client<typeof RobotService> {
  return createClient(RobotService, createGrpcTransport({ baseUrl: `https://${name}:${port}`, nodeOptions: { ca, lookup: toLoopback } }));
}
