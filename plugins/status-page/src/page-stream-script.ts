/**
 * @module The live event stream for the pages (`/ui/stream.js`): `GET /v1/events` read with fetch
 * streaming (EventSource cannot send the API token), parsed as Server-Sent Events, resumed after a
 * drop with `Last-Event-ID` from the last id seen (the daemon replays what was missed, or sends
 * `resync`), reconnecting after the stream's `retry:` interval. Shows its state in the banner.
 */

export const PAGE_STREAM_SCRIPT = `"use strict";
// The daemon's event stream over fetch (window.ctsUi.stream).
(function () {
  var ui = window.ctsUi;
  var handlers = {};
  var lastId = "";
  var retryMs = 2000;
  var started = false;
  var leaving = false;
  var current = null;

  function on(type, handler) { (handlers[type] = handlers[type] || []).push(handler); }
  function emit(type, data, id) {
    (handlers[type] || []).forEach(function (handler) {
      try { handler(data, id); } catch (e) { if (window.console) console.warn("event handler failed", e); }
    });
  }
  function setLive(state, text) {
    var node = ui.$("live-state");
    node.setAttribute("data-state", state);
    node.textContent = text;
  }

  // One SSE frame: "field: value" lines; data lines joined with newlines.
  function dispatch(frame) {
    var type = "message", data = [], id = null;
    frame.split(/\\r?\\n/).forEach(function (line) {
      if (line === "" || line.charAt(0) === ":") return;
      var colon = line.indexOf(":");
      var field = colon < 0 ? line : line.slice(0, colon);
      var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else if (field === "retry" && /^\\d+$/.test(value)) retryMs = Number(value);
    });
    if (id !== null) lastId = id;
    if (!data.length && type === "message") return;
    var parsed = {};
    try { parsed = data.length ? JSON.parse(data.join("\\n")) : {}; } catch (e) { parsed = {}; }
    emit(type, parsed, id);
  }

  function reconnect() {
    if (leaving) return;
    setLive("connecting", "Reconnecting…");
    setTimeout(connect, retryMs);
  }

  function read(reader) {
    var buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return;
        buffer += chunk.value;
        var frames = buffer.split(/\\r?\\n\\r?\\n/);
        buffer = frames.pop();
        frames.forEach(dispatch);
        return pump();
      });
    }
    return pump();
  }

  function connect() {
    if (leaving) return;
    var extra = { accept: "text/event-stream" };
    if (lastId) extra["last-event-id"] = lastId;
    current = new AbortController();
    fetch("/v1/events", { headers: ui.api.headers(extra), cache: "no-store", signal: current.signal }).then(function (response) {
      if (response.status === 401) {
        setLive("down", "Waiting for the API token");
        ui.api.needToken(connect, ui.api.token() !== "");
        return;
      }
      if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
      setLive("live", "Live");
      return read(response.body.pipeThrough(new TextDecoderStream()).getReader()).then(reconnect);
    }).catch(reconnect);
  }

  function start() {
    if (started) return;
    started = true;
    // A stream left open by a page the browser moved away from keeps its connection, and a
    // browser opens only six to one host: end it when the page goes.
    window.addEventListener("pagehide", function () {
      leaving = true;
      if (current) current.abort();
    });
    if (typeof TextDecoderStream === "undefined" || !window.ReadableStream) { setLive("down", "Live updates unavailable"); return; }
    connect();
  }

  ui.stream = { on: on, start: start };
})();
`;
