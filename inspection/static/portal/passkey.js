/* The officer's passkey (WebAuthn): signing in, and signing each act.
 *
 * A form with data-passkey-options (the sign-in step) asks the authenticator to sign the
 * challenge its options hold. A form with data-officer-sign (an act) is first posted with
 * prepare=1: the server answers the statement of exactly what is stamped and its challenge;
 * the authenticator signs it; the form is then posted with the assertion. Binary values
 * travel as base64url, as the server's py_webauthn reads them. */
(function () {
  "use strict";

  function fromB64url(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) { b64 += "="; }
    var raw = atob(b64), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes.buffer;
  }

  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer), raw = "";
    for (var i = 0; i < bytes.length; i++) { raw += String.fromCharCode(bytes[i]); }
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function assertion(options) {
    var publicKey = {
      challenge: fromB64url(options.challenge),
      rpId: options.rpId,
      timeout: options.timeout,
      userVerification: options.userVerification,
      allowCredentials: options.allowCredentials.map(function (c) {
        return { type: c.type, id: fromB64url(c.id) };
      })
    };
    return navigator.credentials.get({ publicKey: publicKey }).then(function (credential) {
      var r = credential.response;
      return JSON.stringify({
        id: credential.id,
        rawId: toB64url(credential.rawId),
        type: credential.type,
        response: {
          authenticatorData: toB64url(r.authenticatorData),
          clientDataJSON: toB64url(r.clientDataJSON),
          signature: toB64url(r.signature),
          userHandle: r.userHandle ? toB64url(r.userHandle) : null
        }
      });
    });
  }

  function say(form, text) {
    var box = form.querySelector(".passkey-error");
    if (!box) {
      box = document.createElement("p");
      box.className = "error passkey-error";
      box.setAttribute("role", "alert");
      form.appendChild(box);
    }
    box.textContent = text;
  }

  function hidden(form, name, value) {
    var input = form.querySelector("input[name='" + name + "']");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  function failed(form) {
    return function (error) {
      if (document.body.getAttribute("data-demo-passkey") === "1" && form.hasAttribute("data-officer-sign")) {
        /* DEMO ONLY: no authenticator here; the server signs with the demo's software passkey. */
        form.setAttribute("data-passkey-done", "1");
        form.submit();
        return;
      }
      say(form, (form.getAttribute("data-passkey-failed") || document.body.getAttribute("data-passkey-failed") || "") +
        (error && error.message ? " (" + error.message + ")" : ""));
    };
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.getAttribute("data-passkey-done") === "1") { return; }
    if (form.hasAttribute("data-passkey-options")) {
      if (event.submitter && event.submitter.name === "demo") { return; }
      event.preventDefault();
      assertion(JSON.parse(form.getAttribute("data-passkey-options"))).then(function (json) {
        hidden(form, "assertion", json);
        form.setAttribute("data-passkey-done", "1");
        form.submit();
      }, failed(form));
    } else if (form.hasAttribute("data-officer-sign")) {
      event.preventDefault();
      var data = new FormData(form);
      data.append("prepare", "1");
      fetch(form.action, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (response) {
          return response.json().then(function (body) {
            if (!response.ok) { throw new Error(body.message || response.status); }
            return body;
          });
        })
        .then(function (body) {
          return assertion(body.publicKey).then(function (json) {
            hidden(form, "officer_statement", body.statement);
            hidden(form, "officer_assertion", json);
            form.setAttribute("data-passkey-done", "1");
            form.submit();
          });
        })
        .catch(failed(form));
    }
  });
})();
