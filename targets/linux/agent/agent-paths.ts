// Where the agent keeps things, all under one root prefix ("/" on a device, a directory in tests),
// so every file the agent reads or writes can be exercised without root.
import { join, resolve } from "node:path";

/** The two things the agent installs and runs. */
export type Product = "svc-server" | "agent";

export interface AgentPaths {
  root: string;
  /** Settings cache, version cache (bad marks), update state: /var/lib/svc-agent. */
  stateDir: string;
  /** Resumable downloads: /var/cache/svc-agent/downloads. */
  downloadDir: string;
  /** The lock holding the running agent's PID: /run/svc-agent.lock. */
  lockFile: string;
  /** /opt/svc/<product>: holds versions/<version>/ and the `current` (and `previous`) symlinks. */
  productDir(product: Product): string;
  /** /opt/svc/<product>/versions/<version>. */
  versionDir(product: Product, version: string): string;
  /** /opt/svc/<product>/current: a symlink to versions/<version>, swapped by an atomic rename. */
  currentLink(product: Product): string;
  /** /opt/svc/<product>/previous: the version to roll back to. */
  previousLink(product: Product): string;
  /** The executable inside an installed version: versions/<v>/svc-server or versions/<v>/svc-agent. */
  executableIn(product: Product, versionDir: string): string;
  /** /opt/svc/<product>/current/<executable>: what is run. */
  currentExecutable(product: Product): string;
  /** A path on the device (such as /etc/systemd/system/svc-agent.service) under the root prefix. */
  system(path: string): string;
}

export const EXECUTABLE_NAMES: Record<Product, string> = { "svc-server": "svc-server", agent: "svc-agent" };

export function agentPaths(root = "/"): AgentPaths {
  const base = resolve(root);
  const at = (path: string) => join(base, path);
  const productDir = (product: Product) => at(join("opt/svc", product));
  const executableIn = (product: Product, versionDir: string) => join(versionDir, EXECUTABLE_NAMES[product]);
  return {
    root: base,
    stateDir: at("var/lib/svc-agent"),
    downloadDir: at("var/cache/svc-agent/downloads"),
    lockFile: at("run/svc-agent.lock"),
    productDir,
    versionDir: (product, version) => join(productDir(product), "versions", version),
    currentLink: (product) => join(productDir(product), "current"),
    previousLink: (product) => join(productDir(product), "previous"),
    executableIn,
    currentExecutable: (product) => executableIn(product, join(productDir(product), "current")),
    system: at,
  };
}
