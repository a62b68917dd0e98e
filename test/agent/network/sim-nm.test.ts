// The simulated NetworkManager, driven with raw dbus-next calls as a client would: its shape is
// compared with the real NetworkManager's (run in a network namespace) for the wired subset, and
// the Wi-Fi scenarios the real one cannot run here are checked against NetworkManager's own
// state machine: scan, a good key, a wrong key, an access point leaving, the hotspot.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DBusError, Message, Variant, sessionBus, type MessageBus } from "dbus-next";
import { eventually } from "../../helpers/eventually.js";
import { startNmNetns } from "../../helpers/nm-netns.js";
import { startSimNetworkManager, type SimNetworkManager } from "../../helpers/sim-network-manager/index.js";

const NM = "org.freedesktop.NetworkManager";
const NM_PATH = "/org/freedesktop/NetworkManager";
const PROPS = "org.freedesktop.DBus.Properties";

interface Signal {
  path: string;
  interface: string;
  member: string;
  body: unknown[];
}

/** A raw client: calls, properties, and every signal NetworkManager sends, in order. */
async function connect(busAddress: string) {
  const bus: MessageBus = sessionBus({ busAddress });
  const signals: Signal[] = [];
  bus.on("message", (m: Message) => {
    if (m.type === 4 && m.sender !== "org.freedesktop.DBus") signals.push({ path: m.path, interface: m.interface, member: m.member, body: m.body });
  });
  const raw = async (destination: string, path: string, iface: string, member: string, signature = "", body: unknown[] = []) =>
    (await bus.call(new Message({ destination, path, interface: iface, member, signature, body })))!.body;
  await raw("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", "s", [`type='signal',sender='${NM}'`]);
  const call = (path: string, iface: string, member: string, signature = "", body: unknown[] = []) => raw(NM, path, iface, member, signature, body);
  const getAll = async (path: string, iface: string) => (await call(path, PROPS, "GetAll", "s", [iface]))[0] as Record<string, Variant>;
  const get = async (path: string, iface: string, name: string) => ((await call(path, PROPS, "Get", "ss", [iface, name]))[0] as Variant).value;
  const introspect = async (path: string) => (await call(path, "org.freedesktop.DBus.Introspectable", "Introspect"))[0] as string;
  const deviceByIface = async (iface: string) => (await call(NM_PATH, NM, "GetDeviceByIpIface", "s", [iface]))[0] as string;
  return { bus, signals, raw, call, get, getAll, introspect, deviceByIface, close: () => bus.disconnect() };
}
type Client = Awaited<ReturnType<typeof connect>>;

const s = (v: string) => new Variant("s", v);

function wifiProfile(id: string, ssid: string, psk?: string, extra: Record<string, Record<string, Variant>> = {}) {
  return {
    connection: { id: s(id), uuid: s(`0c0ffee0-0000-4000-8000-${id.padEnd(12, "0").slice(0, 12).replace(/[^0-9a-f]/g, "a")}`), type: s("802-11-wireless"), autoconnect: new Variant("b", false) },
    "802-11-wireless": { ssid: new Variant("ay", Buffer.from(ssid)), mode: s("infrastructure") },
    ...(psk === undefined ? {} : { "802-11-wireless-security": { "key-mgmt": s("wpa-psk"), psk: s(psk) } }),
    ipv4: { method: s("auto") },
    ipv6: { method: s("disabled") },
    ...extra,
  };
}

function wiredProfile(iface: string) {
  return {
    connection: { id: s("wired-a"), uuid: s("0b0c3a36-2a4c-4b3a-9f0e-111111111111"), type: s("802-3-ethernet"), "interface-name": s(iface), autoconnect: new Variant("b", false) },
    ipv4: {
      method: s("manual"),
      "address-data": new Variant("aa{sv}", [{ address: s("10.200.0.2"), prefix: new Variant("u", 24) }]),
      gateway: s("10.200.0.1"),
    },
    ipv6: { method: s("disabled") },
  };
}

const deviceStates = (client: Client, device: string) =>
  client.signals.filter((x) => x.path === device && x.interface === `${NM}.Device` && x.member === "StateChanged").map((x) => x.body);
const activeStates = (client: Client, active: string) =>
  client.signals.filter((x) => x.path === active && x.member === "StateChanged").map((x) => x.body);

async function waitActiveState(client: Client, active: string, state: number) {
  await eventually(() => (activeStates(client, active).some((b) => b[0] === state) ? true : undefined), `active connection state ${state}`);
}

/** Member name -> signature, for every interface of an object, from its introspection. */
function shape(xml: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [, name, body] of xml.matchAll(/<interface name="([^"]+)">([\s\S]*?)<\/interface>/g)) {
    const members: Record<string, string> = {};
    for (const [, kind, member, inner = ""] of body!.matchAll(/<(method|signal|property) ([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const attr = (a: string, src: string) => new RegExp(`${a}="([^"]*)"`).exec(src)?.[1] ?? "";
      const memberName = attr("name", member!);
      if (kind === "property") members[`property ${memberName}`] = `${attr("type", member!)} ${attr("access", member!)}`;
      else {
        const args = [...inner.matchAll(/<arg ([^>]*)\/>/g)].map(([, a]) => `${attr("direction", a!) || "out"}:${attr("type", a!)}:${attr("name", a!)}`);
        members[`${kind} ${memberName}`] = args.join(",");
      }
    }
    out[name!] = members;
  }
  return out;
}

/** Runs the same wired script on a NetworkManager: add a static profile, activate, deactivate, delete. */
async function wiredScript(client: Client, iface: string) {
  const device = await client.deviceByIface(iface);
  const [connection] = (await client.call(`${NM_PATH}/Settings`, `${NM}.Settings`, "AddConnection", "a{sa{sv}}", [wiredProfile(iface)])) as [string];
  const [active] = (await client.call(NM_PATH, NM, "ActivateConnection", "ooo", [connection, device, "/"])) as [string];
  await waitActiveState(client, active, 2);
  const objects = {
    manager: await client.introspect(NM_PATH),
    device: await client.introspect(device),
    settings: await client.introspect(`${NM_PATH}/Settings`),
    connection: await client.introspect(connection),
    active: await client.introspect(active),
    ip4: await client.introspect((await client.get(device, `${NM}.Device`, "Ip4Config")) as string),
  };
  const types: Record<string, Record<string, string>> = {};
  for (const [path, iface2] of [[NM_PATH, NM], [device, `${NM}.Device`], [active, `${NM}.Connection.Active`], [connection, `${NM}.Settings.Connection`]] as const) {
    types[iface2] = Object.fromEntries(Object.entries(await client.getAll(path, iface2)).map(([k, v]) => [k, v.signature]));
  }
  const ip4 = (await client.get((await client.get(device, `${NM}.Device`, "Ip4Config")) as string, `${NM}.IP4Config`, "AddressData")) as Array<Record<string, Variant>>;
  const [, failure] = await client.call(NM_PATH, NM, "ActivateConnection", "ooo", [`${NM_PATH}/Settings/999`, device, "/"]).then(
    () => [undefined, "no error"],
    (e: DBusError) => [undefined, `${e.type}: ${e.text}`],
  );
  await client.call(NM_PATH, NM, "DeactivateConnection", "o", [active]);
  await waitActiveState(client, active, 4);
  await eventually(async () => ((await client.get(device, `${NM}.Device`, "State")) === 30 ? true : undefined), "device disconnected");
  await client.call(connection, `${NM}.Settings.Connection`, "Delete");
  await eventually(() => (client.signals.some((x) => x.member === "ConnectionRemoved") ? true : undefined), "ConnectionRemoved");
  return {
    paths: { connection: connection.replace(/\d+$/, "N"), active: active.replace(/\d+$/, "N"), device: device.replace(/\d+$/, "N") },
    objects,
    types,
    address: ip4.map((a) => `${a.address!.value}/${a.prefix!.value}`),
    failure,
    deviceStates: deviceStates(client, device),
    activeStates: activeStates(client, active),
    settingsSignals: client.signals.filter((x) => x.path.startsWith(`${NM_PATH}/Settings`) && x.interface !== PROPS).map((x) => `${x.interface}.${x.member}`),
  };
}

describe("the simulated NetworkManager compared with the real one (wired)", () => {
  it("publishes the same interfaces, property types, paths and activation signals", async () => {
    const real = await startNmNetns();
    let realRun: Awaited<ReturnType<typeof wiredScript>>;
    try {
      const client = await connect(real.busAddress);
      try {
        realRun = await wiredScript(client, "eth0");
      } finally {
        client.close();
      }
    } finally {
      await real.stop();
    }
    const sim = await startSimNetworkManager({ wired: ["eth0"], wifi: [] });
    let simRun: Awaited<ReturnType<typeof wiredScript>>;
    try {
      const client = await connect(sim.busAddress);
      try {
        simRun = await wiredScript(client, "eth0");
      } finally {
        client.close();
      }
    } finally {
      await sim.stop();
    }

    expect(simRun.paths).toEqual(realRun.paths);
    expect(simRun.address).toEqual(realRun.address);
    expect(simRun.failure).toEqual(realRun.failure);
    expect(simRun.deviceStates).toEqual(realRun.deviceStates);
    expect(simRun.activeStates).toEqual(realRun.activeStates);
    expect(simRun.settingsSignals).toEqual(realRun.settingsSignals);
    // Every interface the simulation implements has the real member names, arguments and types.
    expect(Object.keys(shape(simRun.objects.device))).toEqual(expect.arrayContaining([`${NM}.Device`, `${NM}.Device.Wired`]));
    expect(Object.keys(shape(simRun.objects.device)[`${NM}.Device`]!)).toContain("signal StateChanged");
    expect(shape(simRun.objects.manager)[NM]!["method ActivateConnection"]).toBe("in:o:connection,in:o:device,in:o:specific_object,out:o:active_connection");
    for (const [name, xml] of Object.entries(simRun.objects)) {
      const simShape = shape(xml);
      const realShape = shape(realRun.objects[name as keyof typeof realRun.objects]);
      for (const iface of Object.keys(simShape)) {
        expect({ object: name, iface, members: simShape[iface] }).toEqual({ object: name, iface, members: realShape[iface] });
      }
    }
    expect(simRun.types).toEqual(realRun.types);
  });
});

describe("the simulated NetworkManager (wifi)", () => {
  let sim: SimNetworkManager;
  let client: Client;
  let wlan0: string;

  beforeEach(async () => {
    sim = await startSimNetworkManager({
      wifi: ["wlan0"],
      accessPoints: [
        { ssid: "home", psk: "correct horse", strength: 80, frequency: 5180 },
        { ssid: "cafe", security: "open", strength: 40 },
      ],
    });
    client = await connect(sim.busAddress);
    wlan0 = await client.deviceByIface("wlan0");
  });
  afterEach(async () => {
    client.close();
    await sim.stop();
  });

  async function addAndActivate(profile: ReturnType<typeof wifiProfile>, device = wlan0) {
    const [connection] = (await client.call(`${NM_PATH}/Settings`, `${NM}.Settings`, "AddConnection", "a{sa{sv}}", [profile])) as [string];
    const [active] = (await client.call(NM_PATH, NM, "ActivateConnection", "ooo", [connection, device, "/"])) as [string];
    return { connection, active };
  }

  it("lists devices, and after a scan the access points in range with their properties", async () => {
    const [devices] = (await client.call(NM_PATH, NM, "GetDevices")) as [string[]];
    const kinds = await Promise.all(devices.map(async (d) => [await client.get(d, `${NM}.Device`, "Interface"), await client.get(d, `${NM}.Device`, "DeviceType")]));
    expect(kinds).toEqual([["lo", 32], ["wlan0", 2]]);
    const before = (await client.get(wlan0, `${NM}.Device.Wireless`, "LastScan")) as bigint;
    await client.call(wlan0, `${NM}.Device.Wireless`, "RequestScan", "a{sv}", [{}]);
    await eventually(async () => ((await client.get(wlan0, `${NM}.Device.Wireless`, "LastScan")) !== before ? true : undefined), "LastScan to change");
    const [aps] = (await client.call(wlan0, `${NM}.Device.Wireless`, "GetAllAccessPoints")) as [string[]];
    const seen = await Promise.all(aps.map((ap) => client.getAll(ap, `${NM}.AccessPoint`)));
    expect(seen.map((p) => [p.Ssid!.signature, Buffer.from(p.Ssid!.value).toString(), p.Strength!.signature, p.Strength!.value, p.Frequency!.value, p.Flags!.value, p.RsnFlags!.value])).toEqual([
      ["ay", "home", "y", 80, 5180, 1, 0x188],
      ["ay", "cafe", "y", 40, 2437, 0, 0],
    ]);
    expect(await client.get(wlan0, `${NM}.Device.Wireless`, "AccessPoints")).toEqual(aps);
  });

  it("activates a profile with the right key: PREPARE, CONFIG, IP_CONFIG ... ACTIVATED, an address and full connectivity", async () => {
    const { active } = await addAndActivate(wifiProfile("home", "home", "correct horse"));
    await waitActiveState(client, active, 2);
    expect(deviceStates(client, wlan0)).toEqual([[40, 30, 0], [50, 40, 0], [70, 50, 0], [80, 70, 0], [90, 80, 0], [100, 90, 0]]);
    expect(await client.get(wlan0, `${NM}.Device`, "ActiveConnection")).toBe(active);
    const ap = (await client.get(active, `${NM}.Connection.Active`, "SpecificObject")) as string;
    expect(Buffer.from((await client.get(ap, `${NM}.AccessPoint`, "Ssid")) as Buffer).toString()).toBe("home");
    expect(await client.get(wlan0, `${NM}.Device.Wireless`, "ActiveAccessPoint")).toBe(ap);
    const ip4 = (await client.get(wlan0, `${NM}.Device`, "Ip4Config")) as string;
    const data = (await client.get(ip4, `${NM}.IP4Config`, "AddressData")) as Array<Record<string, Variant>>;
    expect(data[0]!.address!.value).toMatch(/^192\.168\.\d+\.100$/);
    expect(await client.get(NM_PATH, NM, "Connectivity")).toBe(4);
    expect(await client.get(NM_PATH, NM, "State")).toBe(70);
    await sim.control.setInternet("portal");
    expect(await client.call(NM_PATH, NM, "CheckConnectivity")).toEqual([2]);
    expect(await client.get(NM_PATH, NM, "State")).toBe(60);
    const calls = sim.control.events().filter((e) => e.kind === "call" && e.member === "ActivateConnection");
    expect(calls).toMatchObject([{ connection: "home" }]);
  });

  it("fails a wrong key the way NetworkManager does: NEED_AUTH (supplicant disconnect), FAILED (no secrets), DISCONNECTED", async () => {
    const { active } = await addAndActivate(wifiProfile("home", "home", "wrong horse"));
    await waitActiveState(client, active, 4);
    await eventually(() => (deviceStates(client, wlan0).some((b) => b[0] === 30) ? true : undefined), "DISCONNECTED");
    expect(deviceStates(client, wlan0).slice(1)).toEqual([[50, 40, 0], [60, 50, 8], [120, 60, 7], [30, 120, 0]]);
    expect(activeStates(client, active)).toEqual([[1, 0], [4, 9]]);
    expect(await client.get(wlan0, `${NM}.Device`, "StateReason")).toEqual([30, 0]);
    expect(await client.get(NM_PATH, NM, "ActiveConnections")).toEqual([]);
  });

  it("drops a connection whose access point leaves: FAILED (SSID not found), DISCONNECTED, AccessPointRemoved", async () => {
    const { active } = await addAndActivate(wifiProfile("home", "home", "correct horse"));
    await waitActiveState(client, active, 2);
    const ap = (await client.get(wlan0, `${NM}.Device.Wireless`, "ActiveAccessPoint")) as string;
    await sim.control.setInRange("home", false);
    await eventually(() => (deviceStates(client, wlan0).some((b) => b[0] === 30) ? true : undefined), "DISCONNECTED");
    expect(deviceStates(client, wlan0).slice(-2)).toEqual([[120, 100, 53], [30, 120, 0]]);
    expect(activeStates(client, active).slice(-1)).toEqual([[4, 3]]);
    expect(client.signals.filter((x) => x.member === "AccessPointRemoved").map((x) => x.body)).toEqual([[ap]]);
    expect(await client.get(wlan0, `${NM}.Device.Wireless`, "AccessPoints")).not.toContain(ap);
    expect(await client.get(NM_PATH, NM, "Connectivity")).toBe(1);
    const lost = await sim.control.waitForEvent((e) => e.kind === "device-state" && e.state === 120, "the failure event");
    expect(lost).toMatchObject({ interface: "wlan0", reason: 53 });
  });

  it("starts a hotspot: AP mode, 10.42.0.1/24, the client connection dropped, scans refused", async () => {
    const client1 = await addAndActivate(wifiProfile("cafe", "cafe"));
    await waitActiveState(client, client1.active, 2);
    const hotspot = wifiProfile("hotspot", "svc-setup", "provision", {
      "802-11-wireless": { ssid: new Variant("ay", Buffer.from("svc-setup")), mode: s("ap") },
      ipv4: { method: s("shared") },
    });
    const { active } = await addAndActivate(hotspot);
    await waitActiveState(client, active, 2);
    expect(activeStates(client, client1.active).slice(-1)).toEqual([[4, 3]]);
    expect(deviceStates(client, wlan0)).toContainEqual([110, 100, 60]);
    expect(await client.get(wlan0, `${NM}.Device.Wireless`, "Mode")).toBe(3);
    const ip4 = (await client.get(wlan0, `${NM}.Device`, "Ip4Config")) as string;
    const data = (await client.get(ip4, `${NM}.IP4Config`, "AddressData")) as Array<Record<string, Variant>>;
    expect(data.map((a) => `${a.address!.value}/${a.prefix!.value}`)).toEqual(["10.42.0.1/24"]);
    await expect(client.call(wlan0, `${NM}.Device.Wireless`, "RequestScan", "a{sv}", [{}])).rejects.toMatchObject({ type: `${NM}.Device.NotAllowed` });
    expect(await sim.control.snapshot()).toMatchObject({ devices: [{ interface: "lo" }, { interface: "wlan0", mode: "ap", activeConnection: "hotspot", addresses: ["10.42.0.1/24"] }] });
  });

  it("keeps secrets out of GetSettings, finds by UUID, updates, and deletes an active profile", async () => {
    const { connection, active } = await addAndActivate(wifiProfile("home", "home", "correct horse"));
    await waitActiveState(client, active, 2);
    const [settings] = (await client.call(connection, `${NM}.Settings.Connection`, "GetSettings")) as [Record<string, Record<string, Variant>>];
    expect(settings["802-11-wireless-security"]).toEqual({ "key-mgmt": s("wpa-psk") });
    const [secrets] = (await client.call(connection, `${NM}.Settings.Connection`, "GetSecrets", "s", ["802-11-wireless-security"])) as [Record<string, Record<string, Variant>>];
    expect(secrets["802-11-wireless-security"]!.psk!.value).toBe("correct horse");
    const uuid = settings.connection!.uuid!.value as string;
    expect(await client.call(`${NM_PATH}/Settings`, `${NM}.Settings`, "GetConnectionByUuid", "s", [uuid])).toEqual([connection]);
    await client.call(connection, `${NM}.Settings.Connection`, "Update", "a{sa{sv}}", [wifiProfile("home", "home", "correct horse", { "802-11-wireless": { ssid: new Variant("ay", Buffer.from("home")), powersave: new Variant("u", 2) } })]);
    expect((await sim.control.snapshot()).connections[0]!.settings["802-11-wireless"]).toMatchObject({ powersave: 2 });
    await expect(client.call(`${NM_PATH}/Settings`, `${NM}.Settings`, "AddConnection", "a{sa{sv}}", [{ connection: { id: s("x") } }])).rejects.toMatchObject({
      type: `${NM}.Settings.Connection.InvalidProperty`,
    });
    await client.call(connection, `${NM}.Settings.Connection`, "Delete");
    await waitActiveState(client, active, 4);
    expect(await client.call(`${NM_PATH}/Settings`, `${NM}.Settings`, "ListConnections")).toEqual([[]]);
    expect(deviceStates(client, wlan0).slice(-2)).toEqual([[110, 100, 38], [30, 110, 38]]);
  });

  it("completes AddAndActivateConnection from the chosen access point", async () => {
    const [aps] = (await client.call(wlan0, `${NM}.Device.Wireless`, "GetAccessPoints")) as [string[]];
    const [connection, active] = (await client.call(NM_PATH, NM, "AddAndActivateConnection", "a{sa{sv}}oo", [{}, wlan0, aps[1]])) as [string, string];
    await waitActiveState(client, active, 2);
    const [settings] = (await client.call(connection, `${NM}.Settings.Connection`, "GetSettings")) as [Record<string, Record<string, Variant>>];
    expect([settings.connection!.id!.value, settings.connection!.type!.value, Buffer.from(settings["802-11-wireless"]!.ssid!.value).toString()]).toEqual(["cafe", "802-11-wireless", "cafe"]);
  });

  it("fails an SSID that is not in range with SSID not found", async () => {
    const { active } = await addAndActivate(wifiProfile("away", "away", "whatever1"));
    await waitActiveState(client, active, 4);
    expect(deviceStates(client, wlan0)).toContainEqual([120, 50, 53]);
  });

  it("vanishes from the bus when killed", async () => {
    const owned = async () => (await client.raw("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", [NM]))[0];
    expect(await owned()).toBe(true);
    await sim.kill();
    expect(await owned()).toBe(false);
  });
});
