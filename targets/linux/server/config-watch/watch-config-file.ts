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
import { MAX_CONFIG_CHARACTERS } from "../../../../core/index.js";

export interface ConfigWatchProblem {
  /** "missing": the file is not there (deleted, or between the steps of a save); "unreadable": any other failure. */
  readonly kind: "missing" | "unreadable" | "too large";
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

/** What a watch holds between looks at the file. */
interface WatchState {
  readonly file: string;
  readonly onChange: (text: string) => void | Promise<void>;
  readonly options: ConfigWatchOptions;
  readonly debounceMs: number;
  closed: boolean;
  /** The content last told (or learned), by hash. */
  lastHash: string | undefined;
  /** Without initialText, the first look only learns the content; a file missing then is new later. */
  learning: boolean;
  /** What the file looked like when last read: the poll skips reading while it stays the same. */
  lastSeen: string | undefined;
  /** The problem last told, so each episode is told once. */
  problem: string | undefined;
  watcher: FSWatcher | undefined;
  debounce: NodeJS.Timeout | undefined;
  /** A look is under way; another asked meanwhile runs after it (forced if any asker forced). */
  checking: boolean;
  checkAgain: boolean;
}

export function watchConfigFile(
  path: string,
  onChange: (text: string) => void | Promise<void>,
  options: ConfigWatchOptions = {},
): ConfigWatcher {
  const w: WatchState = {
    file: resolve(path),
    onChange,
    options,
    debounceMs: options.debounceMs ?? 100,
    closed: false,
    lastHash: options.initialText === undefined ? undefined : hash(Buffer.from(options.initialText)),
    learning: options.initialText === undefined,
    lastSeen: undefined,
    problem: undefined,
    watcher: undefined,
    debounce: undefined,
    checking: false,
    checkAgain: false,
  };
  startWatching(w);
  const poll = setInterval(() => {
    startWatching(w);
    void check(w, false);
  }, options.pollIntervalMs ?? 2000);
  poll.unref();
  void check(w, true);

  return {
    close() {
      w.closed = true;
      clearInterval(poll);
      if (w.debounce) clearTimeout(w.debounce);
      w.watcher?.close();
      w.watcher = undefined;
    },
  };
}

function schedule(w: WatchState): void {
  if (w.closed) return;
  if (w.debounce) clearTimeout(w.debounce);
  w.debounce = setTimeout(() => {
    w.debounce = undefined;
    void check(w, true);
  }, w.debounceMs);
}

async function check(w: WatchState, force: boolean): Promise<void> {
  if (w.checking) {
    w.checkAgain ||= force;
    return;
  }
  w.checking = true;
  try {
    await look(w, force);
  } finally {
    w.checking = false;
  }
  if (w.checkAgain && !w.closed) {
    w.checkAgain = false;
    schedule(w);
  }
}

/** Reads the file when it may have changed (always when forced) and tells new content. */
async function look(w: WatchState, force: boolean): Promise<void> {
  let bytes: Buffer;
  try {
    const info = await stat(w.file);
    const seen = signature(info);
    if (!force && seen === w.lastSeen) return;
    if (info.size > MAX_CONFIG_FILE_BYTES) {
      w.lastSeen = seen;
      return problem(w, "too large", tooLargeMessage(w.file, info.size));
    }
    bytes = await readFile(w.file);
    // A writer still at work: look again once it has been quiet.
    if (signature(await stat(w.file)) !== seen) {
      w.checkAgain = true;
      return;
    }
    w.lastSeen = seen;
  } catch (cause) {
    if (w.closed) return;
    w.learning = false;
    w.lastSeen = undefined;
    report(w, cause);
    return;
  }
  if (w.closed) return;
  w.problem = undefined;
  tell(w, bytes);
}

/** Tells content that differs from the last told; the first look without initialText only learns it. */
function tell(w: WatchState, bytes: Buffer): void {
  const digest = hash(bytes);
  if (digest === w.lastHash) return;
  w.lastHash = digest;
  if (w.learning) {
    w.learning = false;
    return;
  }
  try {
    Promise.resolve(w.onChange(bytes.toString("utf8"))).catch((error: unknown) => w.options.onChangeError?.(error));
  } catch (error) {
    w.options.onChangeError?.(error);
  }
}

function report(w: WatchState, cause: unknown): void {
  const { file } = w;
  const code = (cause as NodeJS.ErrnoException).code;
  const kind = code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unreadable";
  const message = kind === "missing" ? `${file} does not exist` : `${file} cannot be read: ${(cause as Error).message}`;
  problem(w, kind, message, cause);
}

function problem(w: WatchState, kind: ConfigWatchProblem["kind"], message: string, cause?: unknown): void {
  if (w.problem === message) return;
  w.problem = message;
  w.options.onProblem?.({ kind, path: w.file, message, cause });
}

/**
 * A file larger than this cannot hold a configuration (at most MAX_CONFIG_CHARACTERS characters,
 * and no character takes more than 3 bytes per UTF-16 unit), so it is refused without being read:
 * a careless copy of a huge file never fills the memory of the machine.
 */
export const MAX_CONFIG_FILE_BYTES = 3 * MAX_CONFIG_CHARACTERS;

export function tooLargeMessage(file: string, bytes: number): string {
  return `${file} is ${bytes} bytes: larger than a configuration may be (${MAX_CONFIG_CHARACTERS} characters); it is not read`;
}

function startWatching(w: WatchState): void {
  if (w.options.useFsWatch === false || w.watcher || w.closed) return;
  const name = basename(w.file);
  try {
    w.watcher = watch(dirname(w.file), { persistent: false }, (_event, changed) => {
      // Some platforms do not say which file; then any change in the directory counts.
      if (changed === null || changed.toString() === name) schedule(w);
    });
    w.watcher.on("error", () => {
      // The directory went away or was replaced: polling carries on and watches again later.
      w.watcher?.close();
      w.watcher = undefined;
    });
  } catch {
    w.watcher = undefined;
  }
}

function hash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function signature(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}
