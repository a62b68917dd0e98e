// The agent's own NetworkManager profiles: listing them (recognised by profile-identity), adding
// or updating one from its settings, and deleting one. An update is written only when an owned
// field differs, and a profile that is active then has its device reapply the new settings
// (or is activated again when NetworkManager cannot reapply that change in place).
import type { Logger } from "../../../../../core/index.js";
import type { ManagedNetwork, ProfileOptions } from "../network-backend.js";
import { NM_PATH, unwrap, type NmBus } from "./nm-bus.js";
import { ACTIVE_INTERFACE, CONNECTION_INTERFACE, DEVICE_INTERFACE, NM_INTERFACE, SETTINGS_INTERFACE, SETTINGS_PATH } from "./nm-constants.js";
import { ownedLabel } from "./profile-identity.js";
import { WIFI_TYPE, buildProfileSettings, changedFields, maskedSettings, type ProfileSettings } from "./profile-settings.js";

export interface OwnedProfile {
  label: string;
  /** The settings connection's D-Bus path. */
  path: string;
  priority: number;
  kind: "wifi" | "wired";
  /** connection.interface-name, "" when any device of its kind will do. */
  interfaceName: string;
}

export type ApplyOutcome = "added" | "updated" | "unchanged";

export interface ProfileStore {
  list(): Promise<OwnedProfile[]>;
  find(label: string): Promise<OwnedProfile | undefined>;
  apply(managed: ManagedNetwork, options: ProfileOptions): Promise<ApplyOutcome>;
  /** false when no profile of the agent's has that label. */
  remove(label: string): Promise<boolean>;
  /** Paths of the devices where the profile at `path` is active. */
  activeDevices(path: string): Promise<string[]>;
  /** Settings paths of every profile active now. */
  activePaths(): Promise<Set<string>>;
}

type SettingsDict = Record<string, Record<string, unknown>>;

const SECURITY = "802-11-wireless-security";

async function readSettings(nm: NmBus, path: string): Promise<SettingsDict> {
  const [settings] = await nm.call(path, CONNECTION_INTERFACE, "GetSettings");
  return (unwrap(settings) ?? {}) as SettingsDict;
}

export function createProfileStore(nm: NmBus, logger: Logger): ProfileStore {
  const list = async (): Promise<OwnedProfile[]> => {
    const [paths = []] = (await nm.call(SETTINGS_PATH, SETTINGS_INTERFACE, "ListConnections")) as [string[]?];
    const owned: OwnedProfile[] = [];
    for (const path of paths) {
      // A profile deleted between the listing and this read is simply gone.
      const settings = await readSettings(nm, path).catch(() => undefined);
      const connection = settings?.connection;
      if (!connection) continue;
      const label = ownedLabel(String(connection.id ?? ""), String(connection.uuid ?? ""));
      if (label === undefined) continue;
      owned.push({
        label,
        path,
        priority: Number(connection["autoconnect-priority"] ?? 0),
        kind: connection.type === WIFI_TYPE ? "wifi" : "wired",
        interfaceName: String(connection["interface-name"] ?? ""),
      });
    }
    return owned;
  };

  const find = async (label: string): Promise<OwnedProfile | undefined> => (await list()).find((profile) => profile.label === label);

  const activeDevices = async (path: string): Promise<string[]> => {
    const actives = await nm.get<string[]>(NM_PATH, NM_INTERFACE, "ActiveConnections");
    const devices: string[] = [];
    for (const active of actives) {
      const props = await nm.getAll(active, ACTIVE_INTERFACE).catch(() => undefined);
      if (props?.Connection === path) devices.push(...((props.Devices as string[] | undefined) ?? []));
    }
    return devices;
  };

  const activePaths = async (): Promise<Set<string>> => {
    const actives = await nm.get<string[]>(NM_PATH, NM_INTERFACE, "ActiveConnections");
    const paths = await Promise.all(actives.map((active) => nm.get<string>(active, ACTIVE_INTERFACE, "Connection").catch(() => "")));
    return new Set(paths.filter((path) => path !== ""));
  };

  const reapply = async (path: string, label: string): Promise<void> => {
    for (const device of await activeDevices(path)) {
      try {
        await nm.call(device, DEVICE_INTERFACE, "Reapply", "a{sa{sv}}tu", [{}, 0, 0]);
        logger.info("reapplied the updated network profile", { label });
      } catch (error) {
        logger.info("activating the updated network profile again (cannot reapply in place)", { label, reason: String(error) });
        await nm.call(NM_PATH, NM_INTERFACE, "ActivateConnection", "ooo", [path, device, "/"]);
      }
    }
  };

  const currentWithSecrets = async (path: string, wanted: ProfileSettings): Promise<SettingsDict> => {
    const current = await readSettings(nm, path);
    if (wanted[SECURITY]?.psk !== undefined) {
      try {
        const [secrets] = await nm.call(path, CONNECTION_INTERFACE, "GetSecrets", "s", [SECURITY]);
        const section = (unwrap(secrets) as SettingsDict | undefined)?.[SECURITY];
        if (section) current[SECURITY] = { ...current[SECURITY], ...section };
      } catch {
        // Secrets unreadable: the psk compares as changed and is written again.
      }
    }
    return current;
  };

  return {
    list,
    find,
    activeDevices,
    activePaths,
    async apply(managed, options) {
      const wanted = buildProfileSettings(managed, options);
      const existing = await find(managed.label);
      if (logger.enabled("debug")) logger.debug("network profile wanted", { label: managed.label, settings: maskedSettings(wanted) });
      if (!existing) {
        await nm.call(SETTINGS_PATH, SETTINGS_INTERFACE, "AddConnection", "a{sa{sv}}", [wanted]);
        logger.info("added network profile", { label: managed.label, type: managed.network.type });
        return "added";
      }
      const changed = changedFields(wanted, await currentWithSecrets(existing.path, wanted));
      if (changed.length === 0) return "unchanged";
      await nm.call(existing.path, CONNECTION_INTERFACE, "Update", "a{sa{sv}}", [wanted]);
      logger.info("updated network profile", { label: managed.label, changed: changed.join(", ") });
      await reapply(existing.path, managed.label);
      return "updated";
    },
    async remove(label) {
      const existing = await find(label);
      if (!existing) return false;
      await nm.call(existing.path, CONNECTION_INTERFACE, "Delete");
      logger.info("removed network profile", { label });
      return true;
    },
  };
}
