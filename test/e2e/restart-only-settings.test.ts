// The port, its TLS files and the message limit are read when svc-server starts: an edit that
// changes one is taken for everything else, and the log says once that the setting waits for a
// restart; an edit that leaves them alone says nothing of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const sensor = (name: string) => ({ name, api: "rdk:component:sensor", model: "fake" });
const RESTART = "network.max_message_bytes changed; it takes effect when svc-server restarts";

let server: SvcServerProcess;
beforeAll(async () => {
  server = await startSvcServer({ components: [sensor("a")] });
});
afterAll(async () => {
  await server?.stop();
});

const applied = (count: number) =>
  eventually(() => {
    const lines = logLines(server.stdout()).filter((l) => l.msg === "configuration applied");
    return lines.length >= count ? lines : undefined;
  }, `${count} edit(s) applied`);
const restartWarnings = () => logLines(server.stdout()).filter((l) => l.msg === RESTART);

describe("a setting read only at start", () => {
  it("changed by an edit is named once, and the rest of the edit applies", async () => {
    server.writeConfig({ components: [sensor("a")], network: { max_message_bytes: 1 << 20 } });
    await applied(1);
    expect(restartWarnings()).toHaveLength(1);
    expect(restartWarnings()[0]).toMatchObject({ level: "warn", key: "max_message_bytes" });

    server.writeConfig({ components: [sensor("a"), sensor("b")], network: { max_message_bytes: 1 << 20 } });
    await applied(2);
    expect(restartWarnings()).toHaveLength(1);
  });
});
