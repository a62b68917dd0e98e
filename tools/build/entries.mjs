// What each bundle is built from, in one place for the build, the bench and the packager.
export const linuxEntries = {
  "svc-server": "targets/linux/server/main.ts",
  "svc-agent": "targets/linux/agent/main.ts",
  "svc-hal-conformance": "tools/hal-conformance/main.ts",
  "svc-cloud": "targets/cloud/main.ts",
  // The module SDK, the runtime of the package's `svc/module-sdk` export.
  "module-sdk": "targets/linux/module-sdk/index.ts",
};

// Example modules, bundled to dist/modules/<name>.mjs as executables a configuration can run.
export const moduleEntries = {
  counter: "examples/modules/counter/counter.ts",
};

export const mcuEntry = "targets/mcu/main.ts";

/** The MCU target itself (dist/mcu/svc-mcu.mjs): the machine, its HTTP exchange, device and XS-host starters. */
export const mcuTargetEntry = "targets/mcu/svc-mcu.ts";
export const mcuTargetBundle = "dist/mcu/svc-mcu.mjs";

// Native addons and optional hardware libraries are loaded from node_modules at run time.
export const nativeExternals = [
  "node-libgpiod",
  "i2c-bus",
  "serialport",
  "@serialport/*",
  "node-datachannel",
  "dbus-next",
  "better-sqlite3",
  "@roamhq/wrtc",
];
