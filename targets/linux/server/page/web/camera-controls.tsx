// A camera: its image, taken when asked (each source's first image, shown from memory).
import { CameraClient, type RobotClient } from "@viamrobotics/sdk";
import { useEffect, useState } from "preact/hooks";
import { Problem, useProblem } from "../../../../web-ui/problem.js";

export function CameraControls(props: { robot: RobotClient; name: string }) {
  const camera = new CameraClient(props.robot, props.name);
  const [url, setUrl] = useState("");
  const [problem, run] = useProblem();
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const take = () =>
    run(camera.getImages(), (answer) => {
      const first = answer.images[0];
      if (first) setUrl(URL.createObjectURL(new Blob([first.image.slice()], { type: first.mimeType })));
    });
  return (
    <>
      <button type="button" onClick={take}>
        Get image
      </button>
      {url && <img class="camera" src={url} alt={`${props.name}'s image`} />}
      <Problem text={problem} />
    </>
  );
}
