// Every code block of the project's Markdown says its language, and none is shown untried:
// - a `json` block is a machine configuration and passes `svc-server -validate`; a block tagged
//   `json release-index` parses as a release index, `json agent-defaults` as a manufacturer
//   defaults file, with no problem either way;
// - a `sh`, `js` or `ts` block is run by a guide test (a test in test/guides/ that reads its
//   section with `guideBlocks(file, heading)`), or is run exactly as written elsewhere (the named
//   file holds the command), or is listed below with the reason no test can run it;
// - a `text` block is output, usage or a map, which the guide and layout tests compare.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseMachineConfig, parseReleaseIndex } from "../../core/index.js";
import { markdownBlocks, markdownFiles, repositoryRoot, type PlacedBlock } from "../helpers/guide.js";
import { runCli } from "../helpers/run-cli.js";

const LANGUAGES = ["sh", "json", "js", "ts", "text"];
const COMMAND_LANGUAGES = ["sh", "js", "ts"];

/** Commands run exactly as written by something other than a guide test: each string is in `by`. */
const RUN_ELSEWHERE = [
  {
    block: "npm install && npm start    # svc-server on the built-in simulated machine (examples/sim-machine.json)\nnpm install && npm test     # type checks, the build, and every test\n",
    by: "tools/fresh-machine-check.sh",
    holds: ["npm install --no-audit --no-fund", "setsid npm start", "npm test"],
  },
  {
    block: "npm run firmware -- --platform lin\nnpm run firmware -- --platform pico/pico_w\n",
    by: "test/firmware/mcsim-host.ts",
    holds: ["npm run firmware -- --platform lin", "npm run firmware -- --platform pico/pico_w"],
  },
  {
    block: "dig -p 5353 @192.168.1.20 _rpc._tcp.local PTR\n",
    by: "test/server/mdns-discovery.test.ts",
    holds: ["dig -p 5353 @192.168.1.20 _rpc._tcp.local PTR"],
  },
];

/** Commands no test can run here, and why. */
const NOT_RUN = [
  {
    block: 'cd targets/mcu\nmcconfig -d -m -p esp32 ssid="my-network" password="secret"\n',
    why: "builds for the ESP32 with ESP-IDF, which the firmware tests do not set up (npm run test:firmware builds lin and the Pico W)",
  },
  {
    block: "sudo apt-get install build-essential git cmake ninja-build pkg-config gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib libgtk-3-dev libglib2.0-dev xvfb xauth flex bison gperf avahi-daemon avahi-utils\ngit clone --branch 8.2.3 --depth 1 https://github.com/Moddable-OpenSource/moddable.git /opt/moddable\nexport MODDABLE=/opt/moddable PATH=/opt/moddable/build/bin/lin/release:$PATH\nmake -C $MODDABLE/build/makefiles/lin\n",
    why: "installs system packages as root and clones the Moddable SDK from the network; done once per machine, by hand",
  },
  {
    block: "mkdir -p /opt/pico && cd /opt/pico\ngit clone --branch 2.2.0 --depth 1 https://github.com/raspberrypi/pico-sdk.git\ngit -C pico-sdk submodule update --init --depth 1 lib/tinyusb lib/cyw43-driver lib/lwip\ngit clone --branch sdk-2.2.0 --depth 1 https://github.com/raspberrypi/pico-extras.git\ngit clone --branch 2.2.0 --depth 1 https://github.com/raspberrypi/picotool.git\nmkdir -p pico-examples\nexport PICO_SDK_PATH=/opt/pico/pico-sdk\ncmake -S $PICO_SDK_PATH/tools/pioasm -B $PICO_SDK_PATH/build/pioasm -DPIOASM_VERSION_STRING=2.2.0 && make -C $PICO_SDK_PATH/build/pioasm\ncmake -S picotool -B picotool/build -DPICOTOOL_NO_LIBUSB=1 -DPICO_SDK_PATH=$PICO_SDK_PATH && make -C picotool/build\nmkdir -p $PICO_SDK_PATH/build/_deps/picotool && cp picotool/build/picotool $PICO_SDK_PATH/build/_deps/picotool/\n",
    why: "clones the pico-sdk and its tools from the network; done once per machine, by hand",
  },
  {
    block: "sudo sh tools/fresh-machine-check.sh\n",
    why: "purges and reinstalls the system's packages as root; run by hand on a machine that may be changed",
  },
];

const blocks = markdownFiles().flatMap((file) => markdownBlocks(file));
const where = (b: PlacedBlock) => `${b.file}:${b.line}`;

const work = mkdtempSync(join(tmpdir(), "svc-doc-blocks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The sections guide tests run: `file\0heading` for each literal guideBlocks call in test/guides. */
function sectionsRunByGuides(): Set<string> {
  const dir = join(repositoryRoot, "test/guides");
  const sections = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".test.ts"))) {
    const source = readFileSync(join(dir, name), "utf8");
    for (const call of source.matchAll(/guideBlocks\(\s*"([^"]+)",\s*"([^"]+)"\s*\)/g)) sections.add(`${call[1]}\0${call[2]}`);
  }
  return sections;
}

describe("code blocks", () => {
  it("are there to check", () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it("each say their language", () => {
    expect(blocks.filter((b) => !LANGUAGES.includes(b.lang)).map((b) => `${where(b)}: \`\`\`${b.lang}`)).toEqual([]);
  });
});

describe("JSON blocks", () => {
  const json = blocks.filter((b) => b.lang === "json");

  it("are each of a kind this test knows", () => {
    const known = [[], ["release-index"], ["agent-defaults"]].map((t) => t.join(" "));
    expect(json.filter((b) => !known.includes(b.tags.join(" "))).map(where)).toEqual([]);
  });

  it.each(json.filter((b) => b.tags.length === 0).map((b) => [where(b), b] as const))("%s passes svc-server -validate", (_at, block) => {
    const file = join(work, `${block.file.replaceAll("/", "-")}-${block.line}.json`);
    writeFileSync(file, block.text);
    const result = runCli("svc-server", ["-validate", "-config", file]);
    expect(result.stdout + result.stderr).toMatch(/: 0 error\(s\)/);
    expect(result.code).toBe(0);
  });

  it.each(json.filter((b) => b.tags[0] === "release-index").map((b) => [where(b), b] as const))("%s is a release index", (_at, block) => {
    expect(parseReleaseIndex(JSON.parse(block.text), "https://releases.example.com/index.json").problems).toEqual([]);
  });

  it.each(json.filter((b) => b.tags[0] === "agent-defaults").map((b) => [where(b), b] as const))("%s is a manufacturer defaults file", (_at, block) => {
    const { release_index_url: url, ...agent } = JSON.parse(block.text) as Record<string, unknown>;
    expect(url === undefined || /^(https?|file):\/\//.test(String(url))).toBe(true);
    expect(parseMachineConfig({ agent }).issues).toEqual([]);
  });
});

describe("commands and code", () => {
  const sections = sectionsRunByGuides();
  const commands = blocks.filter((b) => COMMAND_LANGUAGES.includes(b.lang));
  const runByGuide = (b: PlacedBlock) => b.headings.some((heading) => sections.has(`${b.file}\0${heading}`));

  it("are each run by a test, or listed with the reason none can", () => {
    const listed = [...RUN_ELSEWHERE, ...NOT_RUN].map((entry) => entry.block);
    const untried = commands.filter((b) => !runByGuide(b) && !listed.includes(b.text));
    expect(untried.map((b) => `${where(b)}: ${b.text.split("\n")[0]}`)).toEqual([]);
  });

  it("listed as run elsewhere are run there", () => {
    for (const entry of RUN_ELSEWHERE) {
      const source = readFileSync(join(repositoryRoot, entry.by), "utf8");
      for (const held of entry.holds) expect(source, `${entry.by} runs ${held}`).toContain(held);
      for (const line of entry.block.trim().split("\n")) {
        for (const command of line.replace(/\s+#.*$/, "").split(" && ")) expect(entry.holds.some((h) => h.includes(command)), command).toBe(true);
      }
    }
  });

  it("listed are all still in the docs", () => {
    const shown = commands.map((b) => b.text);
    expect([...RUN_ELSEWHERE, ...NOT_RUN].map((entry) => entry.block).filter((block) => !shown.includes(block))).toEqual([]);
  });
});
