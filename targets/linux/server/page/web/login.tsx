// The login form of a machine with API keys: the key's id and the key, as svc-server's
// configuration (auth.handlers) or svc-cloud gave them.
import { useState } from "preact/hooks";
import type { ApiKey } from "./session.js";

export function Login(props: { onLogin: (key: ApiKey) => Promise<unknown> }) {
  const [id, setId] = useState("");
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    void props.onLogin({ id: id.trim(), key }).finally(() => setBusy(false));
  };
  return (
    <form onSubmit={submit} aria-label="Log in">
      <h1>Log in to this machine</h1>
      <p>This machine has API keys. Log in with one of them.</p>
      <label>
        API key ID
        <input value={id} onInput={(e) => setId(e.currentTarget.value)} autocomplete="username" required />
      </label>
      <label>
        API key
        <input type="password" value={key} onInput={(e) => setKey(e.currentTarget.value)} autocomplete="current-password" required />
      </label>
      <button type="submit" disabled={busy}>
        Log in
      </button>
    </form>
  );
}
