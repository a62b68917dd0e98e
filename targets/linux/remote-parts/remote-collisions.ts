// Which resources of the remotes carry the simple name of another resource of the same API here:
// a configured one, or another remote's. Nothing is hidden without a word: a configured resource
// keeps its name and the remote's is reached by its remote's name (`pi:left`); between two
// remotes the simple name reaches neither. Each collision is named with the fix, for the remote's
// status and the log.
import { lastNamePart, type ResourceConfig } from "../../../core/index.js";
import type { ListedResource } from "./remote-listing.js";

export interface RemoteResources {
  readonly remote: string;
  readonly resources: readonly ListedResource[];
}

/** For each remote with collisions, one sentence for each. */
export function findCollisions(configured: readonly ResourceConfig[], remotes: readonly RemoteResources[]): Map<string, string[]> {
  const holders = new Map<string, { name: string; remote?: string }>();
  for (const r of configured) holders.set(`${r.api}/${r.name}`, { name: r.name });
  const found = new Map<string, string[]>();
  for (const { remote, resources } of remotes) {
    for (const resource of resources) {
      const simple = lastNamePart(resource.name);
      const holder = holders.get(`${resource.api}/${simple}`);
      if (holder === undefined) {
        holders.set(`${resource.api}/${simple}`, { name: resource.name, remote });
        continue;
      }
      const what = `${resource.api}/${resource.name}`;
      const sentence =
        holder.remote === undefined
          ? `${what} has the name of the configured ${resource.api}/${holder.name}, which keeps it; ` +
            `it is reached only as "${resource.name}": rename it, or give remote ${remote} a prefix`
          : `${what} has the name of ${resource.api}/${holder.name} of remote ${holder.remote}; "${simple}" alone reaches neither, ` +
            `"${holder.name}" and "${resource.name}" do: rename one, or give remote ${remote} a prefix`;
      const list = found.get(remote);
      if (list) list.push(sentence);
      else found.set(remote, [sentence]);
    }
  }
  return found;
}
