// The Linux hardware host: GPIO through libgpiod, I2C and SMBus through i2c-bus, serial ports
// through serialport, hardware PWM through sysfs, and the board definitions that name the pins.
export { openLinuxIO, devicesOnlyDefinition, DEFAULT_EDGE_POLL_MS, type LinuxHost, type LinuxIOOptions } from "./linux-io.js";
export {
  builtinBoardDefinitions,
  genericDefinitionProperties,
  lineOfPin,
  parseGenericDefinition,
  raspberryPi,
  raspberryPi4,
  raspberryPi5,
  type BoardDefinition,
  type DefinitionIssue,
  type GpioChipSelector,
  type PwmBlock,
  type PwmChipSelector,
} from "./board-definitions.js";
export { loadNativeLibraries, INSTALL_HINTS, type NativeLibraries } from "./native.js";
export { DEFAULT_PWM_RESOLUTION, findPwmChip, type PwmReading } from "./pwm.js";
