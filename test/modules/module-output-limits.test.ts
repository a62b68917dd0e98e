// A module that writes 20 MB lines with no newline, on stdout and on stderr, to the real
// svc-server logging to a file: each line is logged up to 64 KiB and the rest dropped and
// counted, the lines after it are logged as usual, and the log file keeps to its 10 MiB cap.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const megabytes20 = 20 * 1024 * 1024;
let dir: string;
let server: SvcServerProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-module-output-"));
  const module = join(dir, "chatty.mjs");
  // Writes its long lines on its first start only (the server restarts a module that never gets ready).
  writeFileSync(
    module,
    `import { existsSync, writeFileSync } from "node:fs";
const marker = ${JSON.stringify(join(dir, "wrote"))};
if (!existsSync(marker)) {
  writeFileSync(marker, "");
  const chunk = "y".repeat(1024 * 1024);
  for (let i = 0; i < 20; i++) process.stdout.write(chunk);
  process.stdout.write("\\nafter the long stdout line\\n");
  for (let i = 0; i < 20; i++) process.stderr.write(chunk);
  process.stderr.write("\\nafter the long stderr line\\n");
}
setInterval(() => {}, 1000);
`,
  );
  server = await startSvcServer(
    { modules: [{ type: "local", name: "chatty", executable_path: module }] },
    { args: ["-log-file", join(dir, "logs", "svc.log")] },
  );
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("logs 64 KiB of a 20 MB line, says how much it dropped, and keeps the log file within its cap", async () => {
  const logs = join(dir, "logs");
  const read = () => readdirSync(logs).map((f) => readFileSync(join(logs, f), "utf8")).join("");
  const lines = await eventually(() => {
    const found = logLines(read());
    // The two pipes are read side by side: wait for the line after each long line.
    const after = ["after the long stdout line", "after the long stderr line"];
    return after.every((msg) => found.some((l) => l.msg === msg)) ? found : undefined;
  }, "the lines after the long stdout and stderr lines");

  expect(lines.find((l) => l.msg === "after the long stdout line")).toBeDefined();
  const kept = lines.filter((l) => /^y+$/.test(l.msg));
  expect(kept.map((l) => l.msg.length)).toEqual([64 * 1024, 64 * 1024]);
  // The two pipes are read side by side: which stream's line ends first is the kernel's to say.
  const dropped = lines.filter((l) => l.dropped_bytes !== undefined).sort((a, b) => String(a.stream).localeCompare(String(b.stream)));
  expect(dropped.map((l) => [l.stream, l.dropped_bytes])).toEqual([
    ["stderr", megabytes20 - 64 * 1024],
    ["stdout", megabytes20 - 64 * 1024],
  ]);
  for (const file of readdirSync(logs)) expect(statSync(join(logs, file)).size).toBeLessThanOrEqual(10 * 1024 * 1024);
});
