// Every field of the `agent` section: default, valid and invalid values.
import {
  bool, checkFields, journald, minutes, text, version, type FieldRow,
  withWifi, home, ipShape, cidrShape,
} from "./field-table.js";

const rows: FieldRow[] = [
  // agent.version_control
  version("agent.version_control.agent"),
  version("agent.version_control.svc-server"),
  // agent.advanced_settings
  bool("agent.advanced_settings.debug"),
  bool("agent.advanced_settings.disable_network_configuration"),
  bool("agent.advanced_settings.disable_system_configuration"),
  bool("agent.advanced_settings.disable_viam_server"),
  minutes("agent.advanced_settings.viam_server_start_timeout_minutes", 10, 1),
  bool("agent.advanced_settings.wait_for_update_check"),
  // agent.network_configuration
  minutes("agent.network_configuration.device_reboot_after_offline_minutes", 0, 0),
  bool("agent.network_configuration.disable_captive_portal_redirect"),
  text("agent.network_configuration.fragment_id", "", ["frag-123"]),
  text("agent.network_configuration.hotspot_interface", "", ["wlan1"]),
  {
    path: "agent.network_configuration.hotspot_password",
    absent: "svcsetup",
    valid: ["correct horse", "12345678"],
    invalid: [
      ["short", "must be 8 to 63 printable ASCII characters (found a string of 5 characters)"],
      [12345678, "must be 8 to 63 printable ASCII characters (found a number value)"],
    ],
  },
  {
    path: "agent.network_configuration.hotspot_prefix",
    absent: "svc-setup",
    valid: ["robot", "Acme Setup"],
    invalid: [["", 'must be 1 to 32 printable ASCII characters (found "")']],
  },
  text("agent.network_configuration.manufacturer", "svc", ["Acme"]),
  text("agent.network_configuration.model", "custom", ["rover-2"]),
  minutes("agent.network_configuration.offline_before_starting_hotspot_minutes", 2, 0),
  minutes("agent.network_configuration.retry_connection_timeout_minutes", 10, 1),
  bool("agent.network_configuration.turn_on_hotspot_if_wifi_has_no_internet"),
  minutes("agent.network_configuration.user_idle_minutes", 5, 1),
  {
    path: "agent.network_configuration.wifi_power_save",
    absent: null,
    valid: [true, false, null],
    invalid: [["on", 'must be true, false or null (found "on")']],
  },
  // agent.additional_networks
  {
    path: "agent.additional_networks",
    absent: {},
    valid: [{}],
    invalid: [[[], "must be an object (found an array)"]],
  },
  {
    path: `${home}.type`,
    base: withWifi,
    required: 'is required: "wifi" or "wired"',
    valid: ["wifi"],
    invalid: [["lte", 'must be "wifi" or "wired" (found "lte")']],
    entry: home,
  },
  text(`${home}.interface`, "", ["wlan0"], withWifi, home),
  {
    path: `${home}.ssid`,
    base: withWifi,
    required: "is required for a wifi network",
    valid: ["cafe", "Home Net 5G"],
    invalid: [[5, "must be a string (found 5)"]],
    entry: home,
  },
  {
    path: `${home}.psk`,
    base: withWifi,
    absent: "",
    valid: ["password1", "a".repeat(63), "0123456789abcdef".repeat(4)],
    invalid: [
      [12345678, "must be a string (found a number value)"],
      ["short", "must be 8 to 63 printable ASCII characters or 64 hex digits (found a string of 5 characters)"],
      ["x".repeat(64), "must be 8 to 63 printable ASCII characters or 64 hex digits (found a string of 64 characters)"],
    ],
    entry: home,
  },
  {
    path: `${home}.priority`,
    base: withWifi,
    absent: 0,
    valid: [-999, 0, 999],
    invalid: [
      [1000, "must be a whole number from -999 to 999 (found 1000)"],
      [-1000, "must be a whole number from -999 to 999 (found -1000)"],
      [1.5, "must be a whole number from -999 to 999 (found 1.5)"],
      ["1", 'must be a whole number from -999 to 999 (found "1")'],
    ],
    entry: home,
  },
  {
    path: `${home}.ipv4_address`,
    base: withWifi,
    absent: "auto",
    valid: ["auto", "192.168.1.20/24", "10.0.0.5/8", "0.0.0.0/0"],
    invalid: [
      ["192.168.1.20", `must be ${cidrShape} (found "192.168.1.20")`],
      ["256.1.1.1/24", `must be ${cidrShape} (found "256.1.1.1/24")`],
      ["10.0.0.1/33", `must be ${cidrShape} (found "10.0.0.1/33")`],
      ["dhcp", `must be ${cidrShape} (found "dhcp")`],
    ],
    entry: home,
  },
  {
    path: `${home}.ipv4_gateway`,
    base: withWifi,
    absent: "",
    valid: ["", "192.168.1.1"],
    invalid: [["gateway", `must be ${ipShape} (or "") (found "gateway")`]],
    entry: home,
  },
  {
    path: `${home}.ipv4_dns`,
    base: withWifi,
    absent: [],
    valid: [["1.1.1.1", "8.8.8.8"]],
    invalid: [
      ["1.1.1.1", 'must be an array (found "1.1.1.1")'],
      [["1.1.1"], `must be ${ipShape} (found "1.1.1")`, `${home}.ipv4_dns[0]`],
    ],
    entry: home,
  },
  {
    path: `${home}.ipv4_route_metric`,
    base: withWifi,
    absent: 600,
    valid: [50, 4294967295],
    invalid: [[-1, "must be a whole number from 0 to 4294967295 (0: 100 wired, 600 wifi) (found -1)"]],
    entry: home,
  },
  // agent.system_configuration
  journald("agent.system_configuration.logging_journald_runtime_max_use_megabytes"),
  journald("agent.system_configuration.logging_journald_system_max_use_megabytes"),
  {
    path: "agent.system_configuration.os_auto_upgrade_type",
    absent: "",
    valid: ["all", "security", "disable", ""],
    invalid: [["none", 'must be one of "all", "security", "disable" or "" (found "none")']],
  },
];

checkFields("every agent configuration field", rows);
