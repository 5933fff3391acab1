/**
 * @module How the pages talk to the daemon (`/ui/api.js`): the public API on the same origin,
 * with the API token when the daemon asks for one. A 401 shows the token form once (an accessible
 * form, focus moved to it); the token is kept in sessionStorage for this tab and sent as
 * `Authorization: Bearer` on every request; requests waiting for it are retried once it is given.
 */

export const PAGE_API_SCRIPT = `"use strict";
// API calls with the optional bearer token (window.ctsUi.api).
(function () {
  var ui = window.ctsUi;
  var KEY = "cts-runtime-api-token";
  var waiting = [];
  var asking = false;

  function token() {
    try { return window.sessionStorage.getItem(KEY) || ""; } catch (e) { return ""; }
  }
  function headers(extra) {
    var out = Object.assign({ accept: "application/json" }, extra || {});
    var value = token();
    if (value) out.authorization = "Bearer " + value;
    return out;
  }

  // Shows the token form (once, however many requests were refused) and calls retry when a token is given.
  function needToken(retry, refused) {
    waiting.push(retry);
    if (asking) return;
    asking = true;
    var form = ui.$("token-form");
    var input = ui.$("token-input");
    var error = ui.$("token-error");
    error.hidden = !refused;
    error.textContent = refused ? "The daemon refused that token. Check it and try again." : "";
    input.setAttribute("aria-invalid", refused ? "true" : "false");
    form.hidden = false;
    input.value = "";
    input.focus();
    ui.announce("The API asks for a token");
  }

  function onSubmit(event) {
    event.preventDefault();
    var input = ui.$("token-input");
    var value = input.value.trim();
    if (!value) { input.focus(); return; }
    try { window.sessionStorage.setItem(KEY, value); } catch (e) { /* private mode: kept for this page only */ }
    ui.$("token-form").hidden = true;
    asking = false;
    var retries = waiting;
    waiting = [];
    retries.forEach(function (retry) { retry(); });
  }

  // One API call; resolves { status, body, headers } (body parsed when JSON). A 401 waits for a token.
  function request(method, path, body) {
    var sentToken = token();
    var init = { method: method, headers: headers(body === undefined ? null : { "content-type": "application/json" }), cache: "no-store" };
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(path, init).then(function (response) {
      if (response.status === 401) {
        return new Promise(function (resolve) {
          needToken(function () { resolve(request(method, path, body)); }, sentToken !== "");
        });
      }
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch (e) { parsed = null; }
        return { status: response.status, body: parsed, headers: response.headers };
      });
    });
  }

  // The error message of an API answer (CTS's shapes), for the page.
  function errorOf(answer) {
    var body = answer.body;
    if (body && body.error && body.error.message) return String(body.error.message);
    if (body && body.errors && body.errors.length) return String(body.errors[0]);
    return "HTTP " + answer.status;
  }

  document.addEventListener("DOMContentLoaded", function () {
    ui.$("token-form").addEventListener("submit", onSubmit);
  });

  ui.api = {
    get: function (path) { return request("GET", path); },
    send: request,
    headers: headers,
    needToken: needToken,
    token: token,
    errorOf: errorOf,
  };
})();
`;
