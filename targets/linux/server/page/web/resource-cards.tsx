// A card for each resource with the controls its API has; a resource of an API the page does not
// know gets a card with its name, its API and DoCommand.
import type { RobotClient } from "@viamrobotics/sdk";
import type { ComponentChildren } from "preact";
import { BoardControls } from "./board-controls.js";
import { CameraControls } from "./camera-controls.js";
import { DoCommandBox } from "./do-command-box.js";
import { EncoderControls } from "./encoder-controls.js";
import type { ShownResource } from "./machine-status.js";
import { MotorControls } from "./motor-controls.js";
import { ReadingsControls } from "./readings-controls.js";
import { ServoControls } from "./servo-controls.js";

export function ResourceCards(props: { robot: RobotClient; resources: readonly ShownResource[] }) {
  return (
    <div class="cards">
      {props.resources.map((r) => (
        <ResourceCard key={r.fullName} robot={props.robot} resource={r} />
      ))}
    </div>
  );
}

function ResourceCard(props: { robot: RobotClient; resource: ShownResource }) {
  const { robot, resource } = props;
  return (
    <section class="card" aria-label={`${resource.name} card`}>
      <h3>
        {resource.name} <small>{resource.api}</small>
      </h3>
      {resource.error && <p class="problem">{resource.error}</p>}
      {controlsOf(robot, resource)}
      <DoCommandBox robot={robot} resource={resource} />
    </section>
  );
}

function controlsOf(robot: RobotClient, resource: ShownResource): ComponentChildren {
  const { api, name } = resource;
  switch (api) {
    case "rdk:component:sensor":
    case "rdk:component:power_sensor":
    case "rdk:component:movement_sensor":
      return <ReadingsControls robot={robot} api={api} name={name} />;
    case "rdk:component:motor":
      return <MotorControls robot={robot} name={name} />;
    case "rdk:component:encoder":
      return <EncoderControls robot={robot} name={name} />;
    case "rdk:component:servo":
      return <ServoControls robot={robot} name={name} />;
    case "rdk:component:board":
      return <BoardControls robot={robot} name={name} />;
    case "rdk:component:camera":
      return <CameraControls robot={robot} name={name} />;
    default:
      return null;
  }
}
