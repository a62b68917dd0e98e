// Making, changing and removing a fragment, each in one transaction with its checks. A change is
// checked as the fragment itself (its nested fragments exist, no cycle, no clash inside it) and
// then for every part using it: a change that would give any of them a clash is refused, naming the
// part. A change that passes makes a new revision for every part using the fragment, all or
// nothing; the caller tells those parts afterwards (the notices answered).
import type { Kysely } from "kysely";
import { Code, MAX_CONFIG_CHARACTERS, MAX_CONFIG_DEPTH, SvcError } from "../../../core/index.js";
import { provisioningKeysOf } from "../storage/api-keys.js";
import { appendFragmentRevision, findFragment, insertFragment, removeFragment } from "../storage/fragments-store.js";
import { appendRevisions } from "../storage/revisions.js";
import type { FragmentsTable, Tables } from "../storage/tables.js";
import { lockOrganization } from "../storage/write-locks.js";
import { refuseConfigErrors } from "./config-errors.js";
import { fragmentLookup } from "./fragment-lookup.js";
import { fragmentsListing, partsUsing, usageOf, type FragmentUsage } from "./fragment-users.js";
import { depthOf, fragmentLabel, mergeFragments, type FragmentLookup, type FragmentSource } from "./merge-fragments.js";
import type { RevisionNotice } from "./revision-bus.js";

export interface FragmentValues {
  organizationId: string;
  id: string;
  name: string;
  config: Record<string, unknown>;
  editedBy: string;
  now: number;
}

export interface SavedFragment {
  fragment: FragmentsTable;
  /** The new revision of each part using the fragment, to publish. */
  notices: RevisionNotice[];
  /** The parts and machines using it, as the change found them. */
  usage: FragmentUsage;
}

const MAX_NAME = 100;

export function createFragment(db: Kysely<Tables>, values: FragmentValues): Promise<FragmentsTable> {
  checkShape(values.name, values.config);
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId: values.organizationId });
    const source: FragmentSource = { id: values.id, name: values.name, config: values.config };
    await checkFragment(source, fragmentLookup(tx, values.organizationId, source));
    return insertFragment(tx, values);
  });
}

/** Changes a fragment; with `basedOn` (its last_updated as the editor read it) a newer change is a conflict. */
export function updateFragment(db: Kysely<Tables>, values: FragmentValues & { basedOn?: number }): Promise<SavedFragment> {
  checkShape(values.name, values.config);
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId: values.organizationId });
    await ownFragment(tx, values.organizationId, values.id);
    const source: FragmentSource = { id: values.id, name: values.name, config: values.config };
    const lookup = fragmentLookup(tx, values.organizationId, source);
    await checkFragment(source, lookup);
    const users = await partsUsing(tx, values.organizationId, values.id, lookup);
    // Parts with the same own config come out the same: each distinct one is checked once.
    const checked = new Set<string>();
    for (const user of users) {
      const own = JSON.stringify(user.config);
      if (checked.has(own)) continue;
      const label = `part ${JSON.stringify(user.name)} (${user.partId})`;
      try {
        refuseConfigErrors(label, (await mergeFragments({ label, config: user.config }, lookup)).config);
      } catch (thrown) {
        if (!(thrown instanceof SvcError)) throw thrown;
        throw new SvcError(thrown.code, `this change of ${fragmentLabel(source)} would break ${label}, which uses it: ${thrown.message}`);
      }
      checked.add(own);
    }
    const fragment = await appendFragmentRevision(tx, values);
    const notices: RevisionNotice[] = await appendRevisions(tx, users, values.editedBy, values.now);
    return { fragment, notices, usage: usageOf(users) };
  });
}

/** Removes a fragment no part, no other fragment and no live provisioning key uses; one in use is refused, naming its users. */
export function deleteFragment(db: Kysely<Tables>, organizationId: string, id: string): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await lockOrganization(tx, { organizationId });
    const fragment = await ownFragment(tx, organizationId, id);
    const parts = await partsUsing(tx, organizationId, id, fragmentLookup(tx, organizationId));
    const fragments = await fragmentsListing(tx, organizationId, id);
    const users = [...parts.map((p) => `part ${JSON.stringify(p.name)} (${p.partId})`), ...fragments.map(fragmentLabel)];
    if (users.length > 0) {
      const named = users.slice(0, 5).join(", ") + (users.length > 5 ? ` and ${users.length - 5} more` : "");
      throw new SvcError(Code.FailedPrecondition, `${fragmentLabel(fragment)} is in use by ${named}: remove it from their configs first`);
    }
    const [key] = await provisioningKeysOf(tx, organizationId, id);
    if (key !== undefined) throw new SvcError(Code.FailedPrecondition, `${fragmentLabel(fragment)} is what provisioning key ${JSON.stringify(key.name)} (${key.id}) attaches: revoke the key first`);
    await removeFragment(tx, id);
  });
}

/** A fragment on its own: its nested fragments exist, no cycle, no clash, and it parses as a config. */
async function checkFragment(source: FragmentSource, lookup: FragmentLookup): Promise<void> {
  const label = fragmentLabel(source);
  const merged = await mergeFragments({ fragmentId: source.id, label, config: source.config }, lookup);
  refuseConfigErrors(label, merged.config);
}

/** The fragment, when it belongs to the organisation; NotFound otherwise, alike. */
export async function ownFragment(db: Kysely<Tables>, organizationId: string, id: string): Promise<FragmentsTable> {
  const fragment = await findFragment(db, id);
  if (fragment === undefined || fragment.organization_id !== organizationId) throw new SvcError(Code.NotFound, `fragment ${id} not found`);
  return fragment;
}

function checkShape(name: string, config: Record<string, unknown>): void {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_NAME || /\p{Cc}/u.test(name)) {
    throw new SvcError(Code.InvalidArgument, `a fragment's name is 1 to ${MAX_NAME} characters, without control characters`);
  }
  if (Object.hasOwn(config, "cloud")) throw new SvcError(Code.InvalidArgument, "a fragment cannot set cloud: each machine's own credentials are filled in by svc-cloud");
  const characters = JSON.stringify(config).length;
  if (characters > MAX_CONFIG_CHARACTERS) throw new SvcError(Code.InvalidArgument, `the fragment's config is ${characters} characters long; at most ${MAX_CONFIG_CHARACTERS}`);
  if (depthOf(config) > MAX_CONFIG_DEPTH) throw new SvcError(Code.InvalidArgument, `the fragment's config nests deeper than ${MAX_CONFIG_DEPTH} levels`);
}
