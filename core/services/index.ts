// Public face of core/services: the service APIs only svc-server serves (navigation, SLAM,
// vision, data manager, motion), each its interface, its handlers and its fake model. Platform neutral
// like the rest of the core, but nothing the MCU's core reaches imports them (core/index.ts does
// not), so a device's bundle never carries them: svc-server's Linux column of the API table and
// its models take them here.
export * from "./navigation/index.js";
export * from "./slam/index.js";
export * from "./vision/index.js";
export * from "./data-manager/index.js";
export * from "./motion/index.js";
