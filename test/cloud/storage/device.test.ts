// What machines and operators write beside the fleet, at the store level, on SQLite and PostgreSQL
// alike: the versions a part's agent reports, what its machine says of its config, svc-cloud's own
// settings, the files parts upload (rows, bytes in the data folder or the database) and the
// release index.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Code, SvcError } from "../../../core/index.js";
import { findPart } from "../../../targets/cloud/storage/machines-store.js";
import { configStatusOf, recordConfigStatus } from "../../../targets/cloud/storage/part-config-status.js";
import { fileStoreOf } from "../../../targets/cloud/storage/file-store-of.js";
import { findPartFile, keepPartFile, listPartFiles, partFileKey, partFilesDir, sweepUnfinishedUploads } from "../../../targets/cloud/storage/part-files.js";
import { addRelease, hasVersion, isImported, listChannels, listReleases, releaseByFile, releaseIndexOf, setChannel } from "../../../targets/cloud/storage/releases-store.js";
import { recordReportedVersions, reportedVersionsOf } from "../../../targets/cloud/storage/reported-versions.js";
import { readSetting, writeSetting } from "../../../targets/cloud/storage/settings.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => (thrown instanceof SvcError ? thrown.code : String(thrown)));

describe.each(backends)("device state on $name", (backend) => {
  it("keeps the versions a part's agent reported, leaving out empty ones, and notes the contact", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    await recordReportedVersions(store.db, partId, { server: "1.2.3", agent: "", os: "debian:12", tags: [], reported_at: SEED_TIME + 7 });
    const part = await findPart(store.db, partId);
    expect(part?.last_access).toBe(SEED_TIME + 7);
    expect(JSON.parse(part!.reported_versions!)).toEqual({ server: "1.2.3", os: "debian:12", reported_at: SEED_TIME + 7 });
    expect(reportedVersionsOf(part!.reported_versions)).toEqual({ server: "1.2.3", os: "debian:12" });
    expect(reportedVersionsOf(null)).toEqual({});
    expect(reportedVersionsOf("not json")).toEqual({});
  });

  it("replaces what a part's machine last said of its config", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    expect(await configStatusOf(store.db, partId)).toBeUndefined();
    await recordConfigStatus(store.db, { part_id: partId, running_revision: "7", refused_revision: "8", refused_reason: "processes: not allowed", reported_at: SEED_TIME });
    await recordConfigStatus(store.db, { part_id: partId, running_revision: "9", refused_revision: "", refused_reason: "", reported_at: SEED_TIME + 1 });
    expect(await configStatusOf(store.db, partId)).toEqual({ part_id: partId, running_revision: "9", refused_revision: "", refused_reason: "", reported_at: SEED_TIME + 1 });
    expect(await codeOf(recordConfigStatus(store.db, { part_id: "no-such-part", running_revision: "1", refused_revision: "", refused_reason: "", reported_at: SEED_TIME }))).not.toBe("ok");
  });

  it("keeps svc-cloud's settings by name, the newest value winning", async () => {
    const store = await backend.open();
    expect(await readSetting(store.db, "public_url")).toBeUndefined();
    await writeSetting(store.db, "public_url", "http://a:1");
    await writeSetting(store.db, "public_url", "http://b:2");
    expect(await readSetting(store.db, "public_url")).toBe("http://b:2");
  });

  it("lists a part's uploaded files newest first and sweeps what uploads cut short left", async () => {
    const store = await backend.open();
    const { dataDir } = backend.placeOf(store);
    const org = await seedOrganization(store.db);
    const { partId } = await org.machine("rover");
    const files = fileStoreOf(store, dataDir);
    const staged = await files.stage(partFileKey(partId, "file-1"), (async function* () {
      yield new TextEncoder().encode("hello");
    })());
    await keepPartFile(store.db, staged, { id: "file-1", part_id: partId, file_name: "diag", file_extension: ".txt", created_at: SEED_TIME });
    await store.db.insertInto("part_files").values({ id: "file-2", part_id: partId, file_name: "later", file_extension: "", size: 2 ** 40, sha256: "00", created_at: SEED_TIME + 1 }).execute();
    expect((await listPartFiles(store.db, partId)).map((f) => [f.id, f.size])).toEqual([["file-2", 2 ** 40], ["file-1", 5]]);
    expect(await findPartFile(store.db, partId, "file-1")).toMatchObject({ size: 5, created_at: SEED_TIME });
    expect(await codeOf(findPartFile(store.db, partId, "file-9"))).toBe(Code.NotFound);
    const dir = partFilesDir(dataDir, partId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "orphan"), "x");
    writeFileSync(join(dir, "file-3.partial"), "x");
    // An upload to PostgreSQL ended between its spool file's opening and unlinking.
    mkdirSync(join(dataDir, "spool"), { recursive: true });
    writeFileSync(join(dataDir, "spool", "6f1c0d1e-cut-short"), "x");
    expect(await sweepUnfinishedUploads(dataDir, store.db)).toBe(3);
    expect(readdirSync(join(dataDir, "spool"))).toEqual([]);
    const kept: Uint8Array[] = [];
    for await (const piece of files.open(partFileKey(partId, "file-1"), 2)) kept.push(piece);
    expect(Buffer.concat(kept).toString()).toBe("hello");
  });

  it("imports a release once, refuses another artifact under its version, and points channels at versions", async () => {
    const store = await backend.open();
    const row = { product: "svc-server", version: "1.2.3", platform: "linux/amd64", file: "svc-server-1.2.3-amd64", sha256: "ab", size: 3_000_000_000, added_at: SEED_TIME };
    expect(await addRelease(store.db, row)).toBe(true);
    expect(await addRelease(store.db, row)).toBe(false);
    expect(await codeOf(isImported(store.db, { ...row, sha256: "cd" }))).toBe(Code.AlreadyExists);
    await addRelease(store.db, { ...row, version: "1.3.0", file: "svc-server-1.3.0-amd64", added_at: SEED_TIME + 1 });
    expect((await listReleases(store.db)).map((r) => [r.version, r.size])).toEqual([["1.2.3", 3_000_000_000], ["1.3.0", 3_000_000_000]]);
    expect(await hasVersion(store.db, "svc-server", "1.3.0")).toBe(true);
    expect(await hasVersion(store.db, "agent", "1.3.0")).toBe(false);
    expect(await releaseByFile(store.db, "svc-server-1.2.3-amd64")).toMatchObject({ version: "1.2.3" });
    await setChannel(store.db, { product: "svc-server", channel: "stable", version: "1.2.3", now: SEED_TIME });
    await setChannel(store.db, { product: "svc-server", channel: "stable", version: "1.3.0", now: SEED_TIME + 2 });
    expect(await listChannels(store.db, "svc-server")).toEqual([{ product: "svc-server", channel: "stable", version: "1.3.0", updated_at: SEED_TIME + 2 }]);
    const index = await releaseIndexOf(store.db, "http://cloud/releases");
    expect(index["svc-server"]?.channels).toEqual({ stable: "1.3.0" });
    expect(index["svc-server"]?.versions["1.2.3"]?.["linux/amd64"]).toEqual({ url: "http://cloud/releases/svc-server-1.2.3-amd64", sha256: "ab", size: 3_000_000_000 });
  });
});
