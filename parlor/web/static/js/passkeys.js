// Passkeys (issue 43): sign up, sign in, or add one, through the browser's WebAuthn with the
// server's options (parlor/web/passkeys.py). Buttons: #passkey-signup (the name in
// #signup-name), #passkey-signin, #passkey-add.
const csrf = () => document.querySelector('input[name="csrf"]').value;

function say(text) {
  const out = document.getElementById("passkey-message");
  if (out) out.textContent = text;
}

async function post(path, fields) {
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    body: new URLSearchParams({ csrf: csrf(), ...fields }),
  });
  const body = await r.json().catch(() => ({ message: `the server answered ${r.status}` }));
  if (!r.ok) throw new Error(body.message || body.error || `refused (${r.status})`);
  return body;
}

async function ceremony(purpose, username) {
  const { ceremony: id, options } = await post("/account/passkey/options", { purpose, username });
  const credential = purpose === "signin"
    ? await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) })
    : await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  const done = await post("/account/passkey/verify", {
    purpose, ceremony: id, credential: JSON.stringify(credential.toJSON()),
  });
  window.location.assign(done.to);
}

function wire(id, purpose, nameField) {
  const button = document.getElementById(id);
  if (!button) return;
  if (!window.PublicKeyCredential) { button.hidden = true; return; }
  button.addEventListener("click", async () => {
    const username = nameField ? document.getElementById(nameField).value : "";
    button.disabled = true;
    say("");
    try { await ceremony(purpose, username); } catch (e) { say(e.message || String(e)); }
    button.disabled = false;
  });
}

wire("passkey-signup", "signup", "signup-name");
wire("passkey-signin", "signin", null);
wire("passkey-add", "add", null);
