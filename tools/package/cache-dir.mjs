// Where packaging keeps what it fetches and builds for another architecture (the Node.js it builds
// against, compiled addons): $XDG_CACHE_HOME/svc, else ~/.cache/svc. Outside the checkout and
// outside $TMPDIR, so it lasts from one packaging to the next and never shows in git; removing it
// only costs the next packaging the time to fetch and build again.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** The cache folder for `env` (the process's environment by default). */
export function svcCacheDir(env = process.env) {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "svc");
}
