// The machine's own control page: the login form when the machine has API keys, then the machine:
// its status, a card of controls for each resource, the resource graph, the live logs and the
// configuration. Everything it needs is served by svc-server itself.
import { render } from "preact";
import { App } from "./app.js";

render(<App />, document.getElementById("app")!);
