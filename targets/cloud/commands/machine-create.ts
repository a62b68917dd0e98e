// `svc-cloud machine create`: a machine with its main part, printed as the machine's credentials
// file, exactly what svc-agent and svc-server read.
import { Code, SvcError } from "../../../core/index.js";
import { createMachine } from "../storage/fleet.js";
import type { Store } from "../storage/open-store.js";

export interface MachineCreateOptions {
  name: string | undefined;
  locationId?: string;
  appAddress: string;
  now: number;
}

export interface CredentialsFile {
  cloud: { id: string; api_key: { id: string; key: string }; app_address: string };
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;

export async function createMachineCommand(store: Store, options: MachineCreateOptions): Promise<CredentialsFile> {
  const { name } = options;
  if (name === undefined) throw new SvcError(Code.InvalidArgument, "--name is required");
  if (!NAME.test(name)) throw new SvcError(Code.InvalidArgument, `--name ${JSON.stringify(name)}: 1 to 63 letters, digits, spaces, '_', '.' or '-', starting with a letter or digit`);
  const location = await findLocation(store, options.locationId);
  const made = await createMachine(store.db, { locationId: location.id, organizationId: location.organization_id, name, editedBy: "svc-cloud", now: options.now });
  return { cloud: { id: made.partId, api_key: made.partKey, app_address: options.appAddress } };
}

async function findLocation(store: Store, locationId: string | undefined) {
  if (locationId !== undefined) {
    const location = await store.db.selectFrom("locations").select(["id", "organization_id"]).where("id", "=", locationId).executeTakeFirst();
    if (location === undefined) throw new SvcError(Code.NotFound, `--location ${locationId}: no such location`);
    return location;
  }
  const locations = await store.db.selectFrom("locations").select(["id", "organization_id"]).limit(2).execute();
  if (locations.length === 0) throw new SvcError(Code.FailedPrecondition, "no location yet: run `svc-cloud init` first");
  if (locations.length > 1) throw new SvcError(Code.InvalidArgument, "there are several locations: say which with --location ID");
  return locations[0]!;
}
