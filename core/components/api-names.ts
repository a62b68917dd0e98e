// The API and model triplets of the built-in models, as configurations and the wire name them.

export const SENSOR_API = "rdk:component:sensor";
export const BOARD_API = "rdk:component:board";
export const MOTOR_API = "rdk:component:motor";
export const SERVO_API = "rdk:component:servo";
export const ENCODER_API = "rdk:component:encoder";
export const MOVEMENT_SENSOR_API = "rdk:component:movement_sensor";
export const POWER_SENSOR_API = "rdk:component:power_sensor";
export const GENERIC_COMPONENT_API = "rdk:component:generic";
export const GENERIC_SERVICE_API = "rdk:service:generic";
export const CAMERA_API = "rdk:component:camera";
export const ARM_API = "rdk:component:arm";
export const GRIPPER_API = "rdk:component:gripper";
export const GANTRY_API = "rdk:component:gantry";
export const BASE_API = "rdk:component:base";
export const INPUT_CONTROLLER_API = "rdk:component:input_controller";
export const VISION_API = "rdk:service:vision";
export const DATA_MANAGER_API = "rdk:service:data_manager";
export const NAVIGATION_API = "rdk:service:navigation";
export const SLAM_API = "rdk:service:slam";
export const MOTION_API = "rdk:service:motion";
export const AUDIO_IN_API = "rdk:component:audio_in";
export const AUDIO_OUT_API = "rdk:component:audio_out";

export const FAKE_MODEL = "rdk:builtin:fake";
/** A service's model when its entry names none, as in Viam's configurations. */
export const BUILTIN_MODEL = "rdk:builtin:builtin";
export const GPIO_MODEL = "rdk:builtin:gpio";
export const PI_MODEL = "rdk:builtin:pi";
export const LINUX_BOARD_MODEL = "rdk:builtin:linux-board";
export const SERIAL_LINE_MODEL = "rdk:builtin:serial-line";
export const INA219_MODEL = "rdk:builtin:ina219";
