// The captive portal page: one self-contained HTML document (inline style and script, no other
// request needed) that shows the device, the networks it sees, and the form. The server renders
// it complete, errors and outcome included, so the form works without JavaScript too.
import type { AccessPoint } from "../network-backend.js";
import type { InputProblem } from "./provisioning-input.js";
import { PORTAL_SCRIPT } from "./portal-script.js";

/** "required": no credentials and no fragment; "optional": a fragment will be used; "none": it has some. */
export type CredentialsPrompt = "required" | "optional" | "none";

export interface PortalPageInput {
  manufacturer: string;
  model: string;
  fragmentId: string;
  credentials: CredentialsPrompt;
  networks: readonly AccessPoint[];
  /** Values to put back in the form (never the password or the API key). */
  values?: { ssid?: string; part_id?: string; api_key_id?: string };
  problem?: InputProblem;
  outcome?: { kind: "success"; ssid: string } | { kind: "error"; error: string };
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
header{margin-bottom:1rem}
.maker{margin:0;color:#4b5563;font-size:.9rem;text-transform:uppercase;letter-spacing:.05em}
h1{margin:.1rem 0 .3rem;font-size:1.6rem}
h2{font-size:1.05rem;margin:0}
section,form{background:#fff;border-radius:.75rem;padding:1rem;margin-bottom:1rem;box-shadow:0 1px 2px #0000001a}
.head{display:flex;justify-content:space-between;align-items:baseline;margin-bottom:.5rem}
.head a{font-size:.9rem;color:#2563eb}
ul{list-style:none;margin:0;padding:0}
a.network{display:flex;align-items:center;gap:.6rem;padding:.6rem .4rem;border-top:1px solid #e5e7eb;color:inherit;text-decoration:none}
li:first-child a.network{border-top:0}
a.network:hover,a.network:focus{background:#eff6ff}
.ssid{flex:1;overflow-wrap:anywhere}
.bars{display:inline-flex;align-items:flex-end;gap:2px;height:14px}
.bars i{display:block;width:4px;background:#d1d5db;border-radius:1px}
.bars i.on{background:#2563eb}
.lock,.no-lock{width:14px;height:14px;flex:none}
.empty{color:#6b7280;margin:.25rem 0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem;font:inherit;border:1px solid #9ca3af;border-radius:.5rem}
input[aria-invalid=true]{border-color:#dc2626;outline-color:#dc2626}
.error{color:#b91c1c;font-size:.9rem;margin:.25rem 0 0}
fieldset{border:0;padding:0;margin:1rem 0 0}
legend,summary{font-weight:600;padding:0}
summary{cursor:pointer;margin-top:1rem}
.hint{color:#4b5563;font-size:.9rem;margin:.25rem 0}
code{background:#f3f4f6;padding:.1rem .3rem;border-radius:.25rem;overflow-wrap:anywhere}
button{margin-top:1.25rem;width:100%;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#2563eb;border:0;border-radius:.5rem}
button:disabled{background:#93c5fd}
.result{margin:1rem 0 0;padding:.75rem;border-radius:.5rem}
.result.pending{background:#eff6ff;color:#1e3a8a}
.result.success{background:#ecfdf5;color:#065f46}
.result.error{background:#fef2f2;color:#991b1b}
`;

const LOCK =
  '<svg class="lock" viewBox="0 0 16 16" role="img" aria-label="secured"><path fill="#374151" d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z"/></svg>';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function bars(strength: number): string {
  const lit = strength >= 75 ? 4 : strength >= 50 ? 3 : strength >= 25 ? 2 : 1;
  let out = `<span class="bars" role="img" aria-label="signal ${Math.round(strength)}%">`;
  for (let i = 1; i <= 4; i++) out += `<i class="${i <= lit ? "on" : ""}" style="height:${i * 25}%"></i>`;
  return `${out}</span>`;
}

function networkList(networks: readonly AccessPoint[]): string {
  if (networks.length === 0) return '<p class="empty">No networks found yet. Scan again, or type the name of a hidden network below.</p>';
  const items = networks.map((ap) => {
    const ssid = escapeHtml(ap.ssid);
    const href = `/?ssid=${encodeURIComponent(ap.ssid)}`;
    const lock = ap.security === "open" ? '<span class="no-lock"></span>' : LOCK;
    return `<li><a class="network" href="${escapeHtml(href)}" data-ssid="${ssid}" data-security="${ap.security}"><span class="ssid">${ssid}</span>${bars(ap.strength)}${lock}</a></li>`;
  });
  return `<ul id="networks">${items.join("")}</ul>`;
}

function field(
  name: string,
  label: string,
  input: PortalPageInput,
  attributes: string,
  value: string | undefined,
): string {
  const problem = input.problem?.field === name ? input.problem.error : "";
  const valueAttr = value ? ` value="${escapeHtml(value)}"` : "";
  return (
    `<label for="${name}">${label}</label>` +
    `<input id="${name}" name="${name}"${valueAttr} ${attributes} aria-invalid="${problem ? "true" : "false"}" aria-describedby="${name}-error">` +
    `<p class="error" id="${name}-error" role="alert"${problem ? "" : " hidden"}>${escapeHtml(problem)}</p>`
  );
}

function credentialFields(input: PortalPageInput): string {
  if (input.credentials === "none") return "";
  const v = input.values ?? {};
  const plain = 'autocomplete="off" autocapitalize="none" spellcheck="false"';
  const fields =
    field("part_id", "Part ID", input, plain, v.part_id) +
    field("api_key_id", "API key ID", input, plain, v.api_key_id) +
    field("api_key", "API key", input, 'type="password" autocomplete="off"', undefined);
  if (input.credentials === "required") {
    return `<fieldset><legend>Machine credentials</legend><p class="hint">This device has no machine credentials yet.</p>${fields}</fieldset>`;
  }
  const open = input.problem && ["part_id", "api_key_id", "api_key"].includes(input.problem.field) ? " open" : "";
  return `<details${open}><summary>Enter machine credentials instead</summary>${fields}</details>`;
}

function fragmentSection(input: PortalPageInput): string {
  if (!input.fragmentId) return "";
  return (
    `<section id="fragment"><h2>Machine setup</h2>` +
    `<p class="hint">This device will be configured from fragment <code>${escapeHtml(input.fragmentId)}</code>. ` +
    (input.credentials === "optional"
      ? "Finish the setup in the mobile app, or enter machine credentials below.</p></section>"
      : "</p></section>")
  );
}

/** Shown after a successful submit; `%s` is the SSID. */
const SUCCESS = "Saved. The device is connecting to \u201c%s\u201d; this setup network will close. Rejoin your usual network.";

function outcome(input: PortalPageInput): string {
  const o = input.outcome;
  if (!o) return '<p id="result" class="result" role="status" hidden></p>';
  if (o.kind === "success") return `<p id="result" class="result success" role="status">${escapeHtml(SUCCESS.replace("%s", o.ssid))}</p>`;
  return `<p id="result" class="result error" role="status">${escapeHtml(o.error)}</p>`;
}

export function renderPortalPage(input: PortalPageInput): string {
  const manufacturer = escapeHtml(input.manufacturer);
  const model = escapeHtml(input.model);
  const data = scriptJson({
    networks: input.networks.map((ap) => ({ ssid: ap.ssid, security: ap.security })),
    credentials: input.credentials,
    success: SUCCESS,
  });
  const v = input.values ?? {};
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Set up ${manufacturer} ${model}</title><style>${STYLE}</style></head>
<body><main>
<header><p class="maker" id="manufacturer">${manufacturer}</p><h1 id="model">${model}</h1><p>Connect this device to a Wi-Fi network.</p></header>
${fragmentSection(input)}
<section aria-labelledby="networks-title"><div class="head"><h2 id="networks-title">Networks nearby</h2><a href="/">Scan again</a></div>${networkList(input.networks)}</section>
<form method="post" action="/" id="portal-form" novalidate>
${field("ssid", "Network name (SSID)", input, 'autocomplete="off" autocapitalize="none" spellcheck="false"', v.ssid)}
${field("psk", "Password", input, 'type="password" autocomplete="off"', undefined)}
${credentialFields(input)}
<button type="submit" id="connect">Connect</button>
${outcome(input)}
</form>
</main>
<script type="application/json" id="portal-data">${data}</script>
<script>${PORTAL_SCRIPT}</script>
</body></html>
`;
}
