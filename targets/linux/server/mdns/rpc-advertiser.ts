// The one mDNS responder of the process (ciao's), advertising the API port as `_rpc._tcp` under
// each instance name. One, because a responder per name and interface is what flooded networks
// with ~10k packets a minute from every robot (goutils#618). The names follow the configuration
// while the responder stays: a name no longer wanted says goodbye, a new one is probed and
// announced on the same sockets. close() says goodbye for every name and releases port 5353.
import type { CiaoService, ServiceOptions } from "@homebridge/ciao/lib/CiaoService.js";
import { createSerialQueue, type Clock, type Logger } from "../../../../core/index.js";
import type { AdvertiseScope } from "./advertise-scope.js";
import type { Ciao } from "./load-ciao.js";
import { listInterfacesFromNode } from "./node-interface-names.js";
import { setFlagTxt } from "./txt-flags.js";

export interface RpcAdvertiserOptions {
  /** The API port. */
  readonly port: number;
  /** TXT entries, each a key without a value. */
  readonly txt: readonly string[];
  readonly scope: Exclude<AdvertiseScope, { kind: "nowhere" }>;
  readonly log: Logger;
  readonly clock: Clock;
}

export interface RpcAdvertiser {
  /** Advertises exactly `names` from now on; resolves once the names dropped have said goodbye. */
  advertise(names: readonly string[]): Promise<void>;
  /** Goodbye for every name, then the responder's sockets close; the same promise on every call. */
  close(): Promise<void>;
}

/** How long close() waits for the goodbyes before it lets the stop go on. */
const GOODBYE_WAIT_MS = 3000;

export function createRpcAdvertiser(ciao: Ciao, options: RpcAdvertiserOptions): RpcAdvertiser {
  const { log } = options;
  listInterfacesFromNode(ciao);
  const responder = ciao.Responder.getResponder();
  /** By the name's lower case, as DNS compares names. */
  const services = new Map<string, CiaoService>();
  // Changes of names and the stop happen one after another, never interleaved.
  const queue = createSerialQueue();
  let closed = false;
  let said = "";

  function publish(name: string): void {
    let service: CiaoService;
    try {
      service = responder.createService(serviceOptions(name, options));
    } catch (thrown) {
      log.warn("cannot advertise this name over mDNS", { name, error: String(thrown) });
      return;
    }
    setFlagTxt(service, options.txt);
    // Another machine on the network already answers to the name: ciao picks the next free one.
    service.on("name-change", (now) => log.warn("mDNS name taken on the network; advertising another", { name, now }));
    service.on("hostname-change", (now) => log.warn("mDNS host name taken on the network; using another", { name, now }));
    services.set(name.toLowerCase(), service);
    service.advertise().then(
      () => log.debug("announced over mDNS", { name }),
      (thrown: unknown) => log.warn("cannot announce this name over mDNS", { name, error: String(thrown) }),
    );
  }

  async function withdraw(key: string, service: CiaoService): Promise<void> {
    services.delete(key);
    try {
      await service.destroy();
    } catch (thrown) {
      log.warn("cannot say goodbye for this name over mDNS", { name: key, error: String(thrown) });
    }
  }

  async function apply(names: readonly string[]): Promise<void> {
    if (closed) return;
    const wanted = new Map(names.map((name) => [name.toLowerCase(), name]));
    for (const [key, service] of [...services]) {
      if (!wanted.has(key)) await withdraw(key, service);
    }
    for (const [key, name] of wanted) {
      if (!services.has(key)) publish(name);
    }
    const now = JSON.stringify([...wanted.values()]);
    if (now === said) return;
    said = now;
    if (wanted.size === 0) log.warn("no name left to advertise over mDNS");
    else log.info("advertising over mDNS", { service: "_rpc._tcp", port: options.port, names: [...wanted.values()], txt: options.txt });
  }

  async function shutdown(): Promise<void> {
    closed = true;
    // Each service says goodbye (one still being probed or queued is just dropped), then the sockets close.
    const leaving = [...services].map(([key, service]) => withdraw(key, service));
    try {
      const done = await settledWithin(Promise.all(leaving).then(() => responder.shutdown()), GOODBYE_WAIT_MS, options.clock);
      if (!done) log.warn("mDNS goodbyes did not finish in time; stopping without them", { waitedMs: GOODBYE_WAIT_MS });
    } catch (thrown) {
      log.warn("mDNS responder failed to stop cleanly", { error: String(thrown) });
    }
  }

  let closing: Promise<void> | undefined;
  return {
    advertise: (names) => queue.run(() => apply(names)),
    close() {
      closing ??= queue.run(shutdown);
      return closing;
    },
  };
}

function serviceOptions(name: string, options: RpcAdvertiserOptions): ServiceOptions {
  const { scope } = options;
  return {
    name,
    type: "rpc",
    port: options.port,
    // `<name>.local` leads to the machine, as viam-server's own names do.
    hostname: name,
    restrictedAddresses: scope.kind === "address" ? [scope.address] : undefined,
    // A port on every IPv4 interface alone is not reached over IPv6: no AAAA records for it.
    disabledIpv6: scope.kind === "everywhere" ? !scope.ipv6 : undefined,
  };
}

/** True once `promise` settles, false when `ms` pass first; a rejection is thrown. */
function settledWithin(promise: Promise<unknown>, ms: number, clock: Clock): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    const timer = clock.setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clock.clearTimeout(timer);
        resolve(true);
      },
      (thrown: unknown) => {
        clock.clearTimeout(timer);
        reject(thrown);
      },
    );
  });
}
