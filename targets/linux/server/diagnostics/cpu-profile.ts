// CPU profiles in Node's inspector format (`.cpuprofile`, opened by Chrome DevTools and most
// profile viewers), taken through an in-process inspector session: for the whole run with
// -cpuprofile, or for a few seconds from the -webprofile endpoint.
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { DiagnosticsError } from "./diagnostics-error.js";
import { checkOutputPath } from "./output-path.js";

export interface RunningCpuProfile {
  /** Ends the profile and returns it (the inspector's Profiler.Profile object). */
  stop(): Promise<object>;
}

export async function startCpuProfile(): Promise<RunningCpuProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  } catch (cause) {
    session.disconnect();
    throw cause;
  }
  let stopped: Promise<object> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        try {
          const { profile } = await session.post("Profiler.stop");
          return profile;
        } finally {
          session.disconnect();
        }
      })();
      return stopped;
    },
  };
}

export interface CpuProfileFile {
  readonly path: string;
  /** Ends the profile and writes the file; the same promise on every call. */
  stop(): Promise<void>;
}

/** -cpuprofile FILE: checks the folder at once, profiles until stop(), then writes FILE. */
export async function startCpuProfileFile(path: string): Promise<CpuProfileFile> {
  const file = checkOutputPath("-cpuprofile", path);
  const running = await startCpuProfile();
  let written: Promise<void> | undefined;
  return {
    path: file,
    stop() {
      written ??= running.stop().then((profile) => {
        try {
          writeFileSync(file, JSON.stringify(profile));
        } catch (cause) {
          throw new DiagnosticsError(`-cpuprofile ${JSON.stringify(path)}: cannot write: ${(cause as Error).message}`, { cause });
        }
      });
      return written;
    },
  };
}
