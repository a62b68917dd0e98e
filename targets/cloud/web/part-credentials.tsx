// A machine's credentials, made anew (svc-cloud keeps only a hash of each key, so a file once
// handed out cannot be shown again): the file to download, and the install command with the
// same three values and svc-cloud's address, shown this once.
import { useEffect, useState } from "preact/hooks";
import { cloudCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface Credentials {
  cloud: { id: string; api_key: { id: string; key: string }; app_address: string };
}

export function PartCredentials(props: { partId: string; partName: string }) {
  const [made, setMade] = useState<{ json: string; url: string; credentials: Credentials } | undefined>(undefined);
  const [problem, run] = useProblem();

  // The download's object URL lives as long as the file is offered.
  useEffect(() => () => made && URL.revokeObjectURL(made.url), [made]);

  const make = () =>
    run(cloudCall<{ credentialsJson: string }>("CreatePartCredentials", { partId: props.partId }), ({ credentialsJson }) =>
      setMade({ json: credentialsJson, url: URL.createObjectURL(new Blob([credentialsJson], { type: "application/json" })), credentials: JSON.parse(credentialsJson) as Credentials }),
    );

  const cloud = made?.credentials.cloud;
  return (
    <section aria-label="Credentials">
      <h2>Credentials</h2>
      <p>
        <button type="button" onClick={make}>
          New credentials file
        </button>
      </p>
      <Problem text={problem} />
      {made && cloud && (
        <>
          <p>
            <a href={made.url} download={`${props.partName}.json`}>
              Download {props.partName}.json
            </a>{" "}
            (shown this once; its key stays valid until revoked)
          </p>
          <p>Install on the machine, as root:</p>
          <pre class="config">{`SVC_CLOUD_URL=${cloud.app_address} SVC_PART_ID=${cloud.id} SVC_API_KEY_ID=${cloud.api_key.id} SVC_API_KEY=${cloud.api_key.key} sh install.sh`}</pre>
        </>
      )}
    </section>
  );
}
