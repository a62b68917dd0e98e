// CloudService's release calls: ListReleases (what svc-cloud can hand to agents, and where each
// channel points) and SetChannel (moves "stable" or "dev" of a product to an imported version).
// Releases belong to the whole svc-cloud, not to one organisation: anyone signed in as a person or
// an organisation key may list them; moving a channel, which every machine following it obeys,
// takes the owner role in the organisation `svc-cloud init` made. A part's key does neither.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { CHANNELS } from "../../../core/agent/index.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { organizationsOf, requireRole } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { hasVersion, listChannels, listReleases, setChannel } from "../storage/releases-store.js";
import type { Tables } from "../storage/tables.js";

/** The route artifacts are served under (see releases-route.ts). */
export const RELEASES_PATH = "/releases/";

/** A product as the wire names it ("svc-agent") and as the release index does ("agent"). */
const wireProduct = (product: string) => (product === "agent" ? "svc-agent" : product);
function indexProduct(product: string, where: string): string {
  if (product === "svc-server") return product;
  if (product === "svc-agent" || product === "agent") return "agent";
  throw new SvcError(Code.InvalidArgument, `${where}: ${JSON.stringify(product)} is not a product (svc-server or svc-agent)`);
}

async function requireReader(db: Kysely<Tables>, principal: Principal): Promise<void> {
  if (principal.kind === "part-key") throw new SvcError(Code.PermissionDenied, "a part's key reaches its own part's device API only");
  if ((await organizationsOf(db, principal)).length === 0) throw new SvcError(Code.PermissionDenied, "releases: the caller belongs to no organisation");
}

async function requireInstanceOwner(db: Kysely<Tables>, principal: Principal): Promise<void> {
  const first = await db.selectFrom("organizations").select("id").orderBy("created_at").limit(1).executeTakeFirst();
  await requireRole(db, principal, first?.id, "owner", "the release channels");
}

export function releasesPart(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const db = cloud.store.db;
  return {
    async listReleases(request, context) {
      await requireReader(db, callerOf(context));
      const product = request.product === undefined ? undefined : indexProduct(request.product, "product");
      const [releases, channels] = await Promise.all([listReleases(db, product), listChannels(db, product)]);
      return {
        releases: releases.map((r) => ({
          product: wireProduct(r.product),
          version: r.version,
          platform: r.platform,
          url: `${cloud.publicUrl}${RELEASES_PATH}${encodeURIComponent(r.file)}`,
          sha256: r.sha256,
          size: BigInt(r.size),
          addedOn: timestampFromMs(r.added_at),
        })),
        channels: channels.map((c) => ({ product: wireProduct(c.product), name: c.channel, version: c.version })),
      };
    },

    async setChannel(request, context) {
      await requireInstanceOwner(db, callerOf(context));
      const product = indexProduct(request.product, "product");
      if (!(CHANNELS as readonly string[]).includes(request.channel)) throw new SvcError(Code.InvalidArgument, `channel: ${JSON.stringify(request.channel)} is not a channel (${CHANNELS.join(", ")})`);
      if (!(await hasVersion(db, product, request.version))) {
        throw new SvcError(Code.NotFound, `${wireProduct(product)} ${request.version} is not imported (svc-cloud release add DIR imports it)`);
      }
      await setChannel(db, { product, channel: request.channel, version: request.version, now: cloud.clock.now() });
      return { channel: { product: wireProduct(product), name: request.channel, version: request.version } };
    },
  };
}
