// A cloud that misbehaves on purpose, for svc-server's hostile half: the real gRPC wire (connect
// over HTTP/2 on loopback), with every answer the test's to choose: MachineConfig may answer
// garbage, too much, or never; WatchRevisions may flood. Sign-in takes any key. Counts the calls
// and keeps what the machine reports of its config.
import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";

export interface FakeAnswer {
  config: string;
  revision: string;
}

export interface FakeCloud {
  readonly url: string;
  /** What MachineConfig answers next: a config, or a function that may never resolve. */
  answer: FakeAnswer | ((signal: AbortSignal) => Promise<FakeAnswer>);
  /** Revisions WatchRevisions sends on each new stream, as fast as it can. */
  notices: string[];
  readonly calls: { machineConfig: number; watch: number };
  /** What RobotService.Certificate answers: none by default. */
  certificate: { tlsCertificate: string; tlsPrivateKey: string };
  /** Each ReportConfigStatus the machine made, oldest first. */
  readonly reports: { runningRevision: string; refusedRevision: string; refusedReason: string }[];
  close(): Promise<void>;
}

export async function startFakeCloud(first: FakeAnswer): Promise<FakeCloud> {
  const fake = {
    answer: first as FakeCloud["answer"],
    notices: [] as string[],
    calls: { machineConfig: 0, watch: 0 },
    reports: [] as FakeCloud["reports"],
    certificate: { tlsCertificate: "", tlsPrivateKey: "" },
  };
  const routes = (router: ConnectRouter) => {
    router.service(AuthService, { authenticate: async () => ({ accessToken: "fake-token" }) });
    router.service(CloudService, {
      async machineConfig(_request, context) {
        fake.calls.machineConfig += 1;
        const answer = typeof fake.answer === "function" ? await fake.answer(context.signal) : fake.answer;
        return { ...answer, partId: "part-1", machineId: "machine-1", locationId: "location-1", primaryOrgId: "org-1" };
      },
      async reportConfigStatus({ runningRevision, refusedRevision, refusedReason }) {
        fake.reports.push({ runningRevision, refusedRevision, refusedReason });
        return {};
      },
      async *watchRevisions(_request, context) {
        fake.calls.watch += 1;
        for (const revision of fake.notices) yield { partId: "part-1", revision };
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
      },
    });
    router.service(RobotService, {
      needsRestart: async () => ({ id: "part-1", mustRestart: false }),
      log: async () => ({}),
      certificate: async () => ({ id: "part-1", ...fake.certificate }),
    });
  };
  const server: Http2Server = createServer(connectNodeAdapter({ routes, writeMaxBytes: 256 * 1024 * 1024 }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const sessions = new Set<import("node:http2").ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  });
}
