// One caller holding streams without end: a key that opens watches over several connections is
// refused RESOURCE_EXHAUSTED past MAX_STREAMS_PER_CALLER, other callers are not touched, and each
// stream that ends, however it ends, makes room for another.
import { createClient, type Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService, type RevisionNotice } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { MAX_STREAMS_PER_CALLER } from "../../targets/cloud/server/stream-limit.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { bearer, cloudTransport, signIn } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

async function machine(name: string) {
  const db = cloud.server.context.store.db;
  const made = await createMachine(db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  const token = await signIn(cloud.url, made.partKey.id, made.partKey.key);
  // Each client its own connection.
  const client = () => createClient(CloudService, cloudTransport(cloud.url, "grpc", [bearer(token)]));
  return { partId: made.partId, client };
}

/** Opens a watch and waits for its first notice; answers how it went. */
async function open(client: Client<typeof CloudService>, partId: string, abort: AbortController): Promise<RevisionNotice | string> {
  try {
    const first = await client.watchRevisions({ partId }, { signal: abort.signal })[Symbol.asyncIterator]().next();
    return first.value as RevisionNotice;
  } catch (thrown) {
    return (thrown as Error).message;
  }
}

describe("one caller's streams", () => {
  it("are refused past the bound, leave other callers alone, and make room as they end", async () => {
    const greedy = await machine("greedy");
    const connections = [greedy.client(), greedy.client(), greedy.client()];
    const aborts: AbortController[] = [];
    const opened = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_CALLER }, (_, i) => {
        const abort = new AbortController();
        aborts.push(abort);
        return open(connections[i % connections.length]!, greedy.partId, abort);
      }),
    );
    expect(opened.every((o) => typeof o !== "string")).toBe(true);
    const refused = await open(connections[0]!, greedy.partId, new AbortController());
    expect(refused).toMatch(/\[resource_exhausted\] this caller holds 128 streams open/);

    const modest = await machine("modest");
    const other = new AbortController();
    expect(await open(modest.client(), modest.partId, other)).toMatchObject({ partId: modest.partId });
    other.abort();

    aborts.pop()!.abort();
    const again = new AbortController();
    await expect.poll(() => open(connections[1]!, greedy.partId, again), { timeout: 10_000 }).toMatchObject({ partId: greedy.partId });
    for (const abort of [...aborts, again]) abort.abort();
  });
});
