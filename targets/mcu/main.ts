// The MCU bundle (dist/mcu/core.mjs): the core as it runs in XS on a microcontroller.
export * from "../../core/index.js";
