// Runs the test suite (vitest) in a temporary folder of its own and fails the run when it leaves
// anything behind: every test writes under $TMPDIR, so the suite gets a fresh $TMPDIR, and after
// vitest ends that folder must be empty, no process the suite started may still run (each one
// carries the suite's $TMPDIR in its environment or command line), and nothing new may appear
// beside it in the system's temporary folder, in the checkout or in ~/.svc. What is found is
// listed, stopped and removed, and counted as one failed test in vitest's JSON report, which CI
// reads.
//
//   node tools/test/run-suite.mjs [vitest arguments]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const REPORT = join(root, ".vitest-report.json");
/** What the run may write in the checkout: the build, the report, screenshots for people. */
const ALLOWED_IN_CHECKOUT = [/^!! dist\//, /^!! node_modules\//, /^!! \.vitest-report\.json$/, /^!! test\/artifacts\//];

const systemTmp = tmpdir();
const suiteTmp = mkdtempSync(join(systemTmp, "svc-suite-"));
const tmpBefore = new Set(readdirSync(systemTmp));
const checkoutBefore = new Set(checkoutEntries());
// What svc writes in a home folder by default (FTDC's ~/.svc/diagnostics.data): tests name their own.
const homeSvc = join(homedir(), ".svc");
const homeBefore = new Set(filesUnder(homeSvc));

const status = await runVitest(process.argv.slice(2));
const problems = [...(await strayProcesses()), ...leftovers(), ...writtenOutside()];
rmSync(suiteTmp, { recursive: true, force: true });

if (problems.length > 0) {
  console.error(`\nThe suite left things behind (${problems.length}):`);
  for (const p of problems.slice(0, 40)) console.error(`  - ${p}`);
  if (problems.length > 40) console.error(`  ... and ${problems.length - 40} more`);
  countAsFailure(problems);
}
process.exit(problems.length > 0 ? 1 : status);

function runVitest(args) {
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  const child = spawn(process.execPath, [vitest, "run", ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, TMPDIR: suiteTmp },
  });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward).on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** Processes that still carry the suite's folder, after a short grace for those already exiting. */
async function strayProcesses() {
  let found = findProcesses();
  for (let i = 0; i < 30 && found.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    found = findProcesses();
  }
  for (const p of found) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return found.map((p) => `process ${p.pid} still running: ${p.command.slice(0, 200)}`);
}

function findProcesses() {
  const found = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1");
      if (environ.split("\0").includes(`TMPDIR=${suiteTmp}`) || cmdline.includes(suiteTmp)) {
        found.push({ pid, command: cmdline.replaceAll("\0", " ").trim() });
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

function leftovers() {
  if (!existsSync(suiteTmp)) return [];
  return readdirSync(suiteTmp).map((name) => `left in $TMPDIR: ${name}`);
}

function writtenOutside() {
  const inTmp = readdirSync(systemTmp)
    .filter((name) => !tmpBefore.has(name) && name !== suiteTmp.slice(systemTmp.length + 1) && name.startsWith("svc-"))
    .map((name) => `written outside $TMPDIR: ${join(systemTmp, name)}`);
  const inCheckout = checkoutEntries()
    .filter((line) => !checkoutBefore.has(line) && !ALLOWED_IN_CHECKOUT.some((re) => re.test(line)))
    .map((line) => `written in the checkout: ${line.slice(3)}`);
  const inHome = filesUnder(homeSvc)
    .filter((file) => !homeBefore.has(file))
    .map((file) => {
      rmSync(file, { force: true });
      return `written in the home folder: ${file}`;
    });
  return [...inTmp, ...inCheckout, ...inHome];
}

function filesUnder(dir) {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  } catch {
    return [];
  }
}

function checkoutEntries() {
  const git = spawnSync("git", ["status", "--porcelain=v1", "--ignored"], { cwd: root, encoding: "utf8" });
  if (git.status !== 0) return [];
  return git.stdout.split("\n").filter((line) => line.startsWith("?? ") || line.startsWith("!! "));
}

function countAsFailure(problems) {
  if (!existsSync(REPORT)) return;
  const report = JSON.parse(readFileSync(REPORT, "utf8"));
  report.numFailedTests += 1;
  report.numTotalTests += 1;
  report.success = false;
  report.testResults.push({
    name: "suite hygiene",
    status: "failed",
    message: problems.join("\n"),
    assertionResults: [{ title: "the suite leaves nothing behind", status: "failed", failureMessages: problems }],
  });
  writeFileSync(REPORT, JSON.stringify(report));
}
