// Follows the configuration file however it is saved: in place, by write-then-rename, through
// an editor's rename dance (the file briefly missing, backup files alongside), or deleted and
// created again. The directory is watched with fs.watch, which sees renames over the file, and a
// slow poll backs it up for what inotify misses (network file systems, a replaced directory, a
// symlinked file). Bursts are debounced; a change is told only when the bytes differ from the
// last ones told, so saving the same content again is silent.
import { createHash } from "node:crypto";
import { watch, type FSWatcher, type Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";

export interface ConfigWatchProblem {
  /** "missing": the file is not there (deleted, or between the steps of a save); "unreadable": any other failure. */
  readonly kind: "missing" | "unreadable";
  readonly path: string;
  readonly message: string;
  readonly cause?: unknown;
}

export interface ConfigWatchOptions {
  /** The text the caller already applied: changes are judged against it. Default: the file as it is now. */
  initialText?: string;
  /** Quiet time after the last event before the file is read. Default 100 ms. */
  debounceMs?: number;
  /** How often the file is looked at regardless of events. Default 2000 ms. */
  pollIntervalMs?: number;
  /** false to rely on polling alone. Default true. */
  useFsWatch?: boolean;
  /** Told once per episode when the file is missing or unreadable; watching goes on. */
  onProblem?: (problem: ConfigWatchProblem) => void;
  /** Told when onChange throws or rejects. */
  onChangeError?: (error: unknown) => void;
}

export interface ConfigWatcher {
  /** Stops watching; no callback runs afterwards. */
  close(): void;
}

export function watchConfigFile(
  path: string,
  onChange: (text: string) => void | Promise<void>,
  options: ConfigWatchOptions = {},
): ConfigWatcher {
  const file = resolve(path);
  const directory = dirname(file);
  const name = basename(file);
  const debounceMs = options.debounceMs ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 2000;

  let closed = false;
  let lastHash: string | undefined = options.initialText === undefined ? undefined : hash(Buffer.from(options.initialText));
  // Without initialText, the first look only learns the content; a file missing then is new later.
  let learning = options.initialText === undefined;
  // What the file looked like when last read: the poll skips reading while it stays the same.
  let lastSeen: string | undefined;
  let problem: string | undefined;
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let checking = false;
  let checkAgain = false;

  function schedule(): void {
    if (closed) return;
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = undefined;
      void check(true);
    }, debounceMs);
  }

  async function check(force: boolean): Promise<void> {
    if (checking) {
      checkAgain ||= force;
      return;
    }
    checking = true;
    try {
      await look(force);
    } finally {
      checking = false;
    }
    if (checkAgain && !closed) {
      checkAgain = false;
      schedule();
    }
  }

  async function look(force: boolean): Promise<void> {
    let before: Stats;
    let bytes: Buffer;
    try {
      before = await stat(file);
      const seen = signature(before);
      if (!force && seen === lastSeen) return;
      bytes = await readFile(file);
      // A writer still at work: look again once it has been quiet.
      if (signature(await stat(file)) !== seen) {
        checkAgain = true;
        return;
      }
      lastSeen = seen;
    } catch (cause) {
      if (closed) return;
      learning = false;
      lastSeen = undefined;
      report(cause);
      return;
    }
    if (closed) return;
    problem = undefined;
    const digest = hash(bytes);
    if (digest === lastHash) return;
    lastHash = digest;
    if (learning) {
      learning = false;
      return;
    }
    try {
      Promise.resolve(onChange(bytes.toString("utf8"))).catch((error: unknown) => options.onChangeError?.(error));
    } catch (error) {
      options.onChangeError?.(error);
    }
  }

  function report(cause: unknown): void {
    const code = (cause as NodeJS.ErrnoException).code;
    const kind = code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unreadable";
    const message = kind === "missing" ? `${file} does not exist` : `${file} cannot be read: ${(cause as Error).message}`;
    if (problem === message) return;
    problem = message;
    options.onProblem?.({ kind, path: file, message, cause });
  }

  function startWatching(): void {
    if (options.useFsWatch === false || watcher || closed) return;
    try {
      watcher = watch(directory, { persistent: false }, (_event, changed) => {
        // Some platforms do not say which file; then any change in the directory counts.
        if (changed === null || changed.toString() === name) schedule();
      });
      watcher.on("error", () => {
        // The directory went away or was replaced: polling carries on and watches again later.
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined;
    }
  }

  startWatching();
  const poll = setInterval(() => {
    startWatching();
    void check(false);
  }, pollIntervalMs);
  poll.unref();
  void check(true);

  return {
    close() {
      closed = true;
      clearInterval(poll);
      if (debounce) clearTimeout(debounce);
      watcher?.close();
      watcher = undefined;
    },
  };
}

function hash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function signature(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}
