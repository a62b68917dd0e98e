// Servers under benchmark run in their own Node process so they do not share an event loop with
// the load generator. The benchmark starts its own bundled file again with extra arguments; the
// child prints its ports as one JSON line on stdout and stops when its stdin ends. Servers in
// other languages (the unary bench's grpc-go server) keep the same terms.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface Ports {
  /** Where gRPC over HTTP/2 is served. */
  h2: number;
  /** Where gRPC-web over HTTP/1.1 is served. */
  web: number;
}

export interface ChildServer<P = Ports> {
  process: ChildProcess;
  ports: P;
}

/** In the child: tells the parent its ports, then serves until the parent ends stdin. */
export function serveUntilStdinEnds(ports: Ports, stop: () => Promise<unknown>): void {
  process.stdout.write(`${JSON.stringify(ports)}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    setTimeout(() => process.exit(0), 2_000).unref();
    void stop().then(() => process.exit(0));
  });
}

/** In the parent: runs this benchmark file again with `args` and waits for the child's ports. */
export function startChildServer(args: readonly string[]): Promise<ChildServer> {
  return startServerProcess(process.execPath, [...process.execArgv, process.argv[1]!, ...args]);
}

/** Starts any program that keeps the same terms (ports as one JSON line, stops when stdin ends). */
export function startServerProcess<P = Ports>(command: string, args: readonly string[]): Promise<ChildServer<P>> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${command} ${args.join(" ")} exited (${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ process: child, ports: JSON.parse(line) as P }));
  });
}

/** Ends the child's stdin and waits for it to exit (SIGKILL after 5 s). */
export function stopChildServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin!.end();
  });
}
