// A fleet written straight into a svc-cloud store before the service starts, as `svc-cloud init`
// and `machine create` would leave it: one organisation, one fragment, and `machines` machines whose
// main part's config lists that fragment, each with its own part key. The store is the data
// folder's SQLite file, or the PostgreSQL database given (every replica then serves it). Editing
// the fragment later makes a new revision for every part at once.
import { initialise, type InitResult } from "../../targets/cloud/commands/init.js";
import { createFragment } from "../../targets/cloud/fleet/save-fragment.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { newId } from "../../targets/cloud/storage/secrets.js";

/** A part a simulated machine runs as: its id and its key. */
export interface FleetPart {
  partId: string;
  key: { id: string; key: string };
}

export interface SeededFleet {
  init: InitResult;
  fragmentId: string;
  parts: FleetPart[];
}

/** The fragment's config at its `n`th edit: one fake sensor whose reading says which edit it is. */
export const fragmentConfig = (n: number) => ({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: n } } }] });

/** The fragment is named `FRAGMENT_NAME`; an edit must give the name again. */
export const FRAGMENT_NAME = "sensors";

export async function seedFleet(dataDir: string, machines: number, database?: string): Promise<SeededFleet> {
  const store = await openStore(dataDir, database);
  try {
    const now = Date.now();
    const init = await initialise(store, { now });
    const fragmentId = newId();
    await createFragment(store.db, { organizationId: init.organization_id, id: fragmentId, name: FRAGMENT_NAME, config: fragmentConfig(0), editedBy: "bench", now });
    const parts: FleetPart[] = [];
    for (let i = 0; i < machines; i++) {
      const made = await createMachine(store.db, { locationId: init.location_id, organizationId: init.organization_id, name: `m${i}`, config: { fragments: [fragmentId] }, editedBy: "bench", now });
      parts.push({ partId: made.partId, key: made.partKey });
    }
    return { init, fragmentId, parts };
  } finally {
    await store.close();
  }
}
