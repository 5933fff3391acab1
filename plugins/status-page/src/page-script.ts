/**
 * @module The pages' entry (`/ui/app.js`; plain JavaScript, no build step, no dependencies): picks
 * the page the path names (`/ui/` overview, `/ui/tasks/<name>`, `/ui/tasks/<name>/runs/<id>`),
 * loads it once the daemon's event stream is `ready` (so nothing published before the load is
 * missed, and the page is read once, not twice), or after 1.5 s if the stream cannot connect; a
 * later `ready` (a reconnect) or `resync` reloads everything, and each event the page cares about
 * reloads it once per burst and is announced in the polite live region. `#page` carries
 * `data-loaded` once the page's first load is done.
 */

export const PAGE_SCRIPT = `"use strict";
(function () {
  var ui = window.ctsUi;
  var state = { page: null, args: [], pending: null, all: false, started: false, first: null };

  function route() {
    var match = /^\\/ui\\/tasks\\/([^/]+)(?:\\/runs\\/([^/]+))?\\/?$/.exec(location.pathname);
    if (!match) return { page: ui.pages.overview, args: [] };
    var name = decodeURIComponent(match[1]);
    return match[2] ? { page: ui.pages.run, args: [name, decodeURIComponent(match[2])] } : { page: ui.pages.task, args: [name] };
  }

  function failed(error) {
    var node = ui.$("page-loading");
    var text = "Cannot load this page: " + (error && error.message ? error.message : String(error));
    if (node) node.textContent = text;
    else ui.$("instance").textContent = text;
  }

  function showInstance() {
    return ui.api.get("/ui/overview.json?task=").then(function (answer) {
      var o = answer.body;
      if (!o) return;
      var leader = o.leader ? o.leader.id : "unknown";
      var stale = o.leader_stale_since ? ", last confirmed " + ui.ago(o.leader_stale_since) + ": Consul is unreachable" : "";
      ui.$("instance").textContent = "Instance " + o.instance_id + (o.is_leader ? " (leader)" : " (follower; leader: " + leader + stale + ")");
      ui.$("version").textContent = "cts-runtime " + o.version;
    });
  }

  function reload(all) {
    state.all = state.all || all;
    if (state.pending) return;
    // Events come in bursts (a run starts, ends, the status changes): one reload per burst.
    state.pending = setTimeout(function () {
      var everything = state.all;
      state.pending = null;
      state.all = false;
      state.page.reload(ui.$("page"), everything);
      if (everything) showInstance();
    }, 150);
  }

  function describe(type, data) {
    var task = data.task || (data.run && data.run.task);
    if (type === "task.status") return "Task " + task + " is " + data.status + (data.enabled === false ? " (disabled)" : "");
    if (type === "task.created") return "Task " + task + " was created";
    if (type === "task.deleted") return "Task " + task + " was deleted";
    if (type === "run.started") return "Task " + task + ": a run started";
    if (type === "run.ended") return "Task " + task + ": run " + (data.run.outcome || "ended") + (data.run.error ? ": " + ui.firstLine(data.run.error, 120) : "");
    if (type === "task.drift") return "Task " + task + (data.drift.status === "drifted" ? ": drift found in " + ui.count(data.drift.resources.length, "resource", "resources") : data.drift.status === "none" ? ": no drift" : ": drift not known");
    if (type === "leadership") return "Instance " + data.instance_id + (data.is_leader ? " leads" : " stepped down");
    if (type === "consul.connection") return data.state === "lost" ? "Connection to Consul lost" : "Connection to Consul restored";
    return "";
  }

  // The first load; called once, on the stream's first ready or after the fallback delay.
  function begin() {
    if (state.started) return;
    state.started = true;
    clearTimeout(state.first);
    var page = ui.$("page");
    Promise.resolve(state.page.start.apply(null, [page].concat(state.args))).then(function () {
      var loading = ui.$("page-loading");
      if (loading) loading.remove();
      page.setAttribute("data-loaded", "true");
    }, failed);
  }

  function listen() {
    ui.stream.on("ready", function () { if (state.started) reload(true); else begin(); });
    ui.stream.on("resync", function () { reload(true); });
    ["task.status", "task.created", "task.deleted", "task.drift", "run.started", "run.ended", "run.output", "leadership", "consul.connection"].forEach(function (type) {
      ui.stream.on(type, function (data) {
        // Before the first load nothing is shown yet: that load reads the current state.
        if (!state.started || !state.page.wants(type, data)) return;
        var text = describe(type, data);
        if (text) ui.announce(text);
        reload(type === "leadership" || type === "consul.connection");
      });
    });
    ui.stream.start();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var picked = route();
    state.page = picked.page;
    var title = picked.page.title.apply(null, picked.args);
    ui.$("page-title").textContent = title;
    document.title = title + (title === "cts-runtime status" ? "" : " · cts-runtime");
    state.args = picked.args;
    ui.$("refresh").addEventListener("click", function () { if (state.started) reload(true); else begin(); ui.announce("Refreshing"); });
    state.first = setTimeout(begin, 1500);
    showInstance();
    listen();
  });
})();
`;
