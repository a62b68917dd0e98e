// The page's own script, inline so the page needs nothing but this server: it fills the SSID
// from the list, checks the form with the same rules as provisioning-input.ts (so mistakes show
// at once, next to their field), and submits through the provisioning API while it shows
// "Connecting...". Without JavaScript the form posts to "/" and the server does the same work.
export const PORTAL_SCRIPT = `(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("portal-data").textContent);
  var form = document.getElementById("portal-form");
  var button = document.getElementById("connect");
  var result = document.getElementById("result");
  var fieldNames = ["ssid", "psk", "part_id", "api_key_id", "api_key"];
  function byId(id) { return document.getElementById(id); }
  function value(id) { var el = byId(id); return el ? el.value : ""; }
  function setError(field, message) {
    var el = byId(field + "-error");
    var input = byId(field);
    if (!el) { showResult("error", message); return; }
    el.textContent = message || "";
    el.hidden = !message;
    if (input) input.setAttribute("aria-invalid", message ? "true" : "false");
  }
  function clearErrors() { fieldNames.forEach(function (f) { if (byId(f + "-error")) setError(f, ""); }); }
  function showResult(kind, message) {
    result.className = "result " + kind;
    result.textContent = message;
    result.hidden = !message;
  }
  function utf8Length(text) { return new TextEncoder().encode(text).length; }
  function networkProblem(ssid, psk) {
    if (ssid.length === 0) return { field: "ssid", error: "Enter the network name (SSID)." };
    var bytes = utf8Length(ssid);
    if (bytes > 32) return { field: "ssid", error: "The network name is " + bytes + " bytes long; at most 32 are allowed." };
    if (/[\\u0000-\\u001f\\u007f-\\u009f]/.test(ssid)) return { field: "ssid", error: "The network name may not contain control characters (such as a line break or NUL)." };
    var seen = data.networks.filter(function (n) { return n.ssid === ssid; })[0];
    if (seen && seen.security === "wpa-eap") return { field: "ssid", error: "\\u201c" + ssid + "\\u201d uses enterprise (802.1X) sign-in, which this page cannot set up." };
    if (psk.length === 0) {
      if (seen && seen.security === "open") return null;
      return { field: "psk", error: "Enter the Wi-Fi password (it may be left empty only for an open network)." };
    }
    if (/^[0-9a-fA-F]{64}$/.test(psk)) return null;
    if (!/^[\\x20-\\x7e]*$/.test(psk)) return { field: "psk", error: "The password may contain only printable ASCII characters (or be 64 hexadecimal digits)." };
    if (psk.length < 8) return { field: "psk", error: "The password is too short: a WPA password has at least 8 characters." };
    if (psk.length > 63) return { field: "psk", error: "The password is too long: a WPA password has at most 63 characters (or 64 hexadecimal digits)." };
    return null;
  }
  function credentialsProblem(c) {
    var fields = [["part_id", c.part_id, "part ID"], ["api_key_id", c.api_key_id, "API key ID"], ["api_key", c.api_key, "API key"]];
    for (var i = 0; i < fields.length; i++) {
      var field = fields[i][0], text = fields[i][1], name = fields[i][2];
      if (text.length === 0) return { field: field, error: "Enter the " + name + "." };
      if (text.length > 256) return { field: field, error: "The " + name + " is longer than 256 characters." };
      if (!/^[\\x21-\\x7e]+$/.test(text)) return { field: field, error: "The " + name + " may contain only printable ASCII characters without spaces." };
    }
    return null;
  }
  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      .then(function (res) { return res.json().then(function (json) { return { ok: res.ok, body: json }; }); });
  }
  function failed(answer) {
    if (answer.body.field && byId(answer.body.field + "-error")) { setError(answer.body.field, answer.body.error); showResult("", ""); }
    else showResult("error", answer.body.error);
  }
  Array.prototype.forEach.call(document.querySelectorAll("a.network"), function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      byId("ssid").value = link.getAttribute("data-ssid");
      clearErrors();
      byId("psk").focus();
    });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearErrors();
    showResult("", "");
    var ssid = value("ssid"), psk = value("psk");
    var creds = null;
    if (data.credentials !== "none") {
      var c = { part_id: value("part_id").trim(), api_key_id: value("api_key_id").trim(), api_key: value("api_key").trim() };
      if (data.credentials === "required" || c.part_id || c.api_key_id || c.api_key) creds = c;
    }
    var problem = networkProblem(ssid, psk) || (creds && credentialsProblem(creds));
    if (problem) { setError(problem.field, problem.error); if (byId(problem.field)) byId(problem.field).focus(); return; }
    button.disabled = true;
    showResult("pending", "Connecting\\u2026");
    var step = creds ? post("/api/v1/credentials", creds) : Promise.resolve({ ok: true });
    step.then(function (answer) {
      if (!answer.ok) { failed(answer); return; }
      return post("/api/v1/network", { ssid: ssid, psk: psk }).then(function (answer) {
        if (answer.ok) showResult("success", data.success.replace("%s", ssid));
        else failed(answer);
      });
    }).catch(function () {
      showResult("error", "The device stopped answering. If it is joining the network, this setup network closes; otherwise reload this page.");
    }).then(function () { button.disabled = false; });
  });
})();
`;
