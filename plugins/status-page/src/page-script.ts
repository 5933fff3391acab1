/**
 * @module The status page's script (`/ui/app.js`; plain JavaScript, no build step, no
 * dependencies): loads `/ui/overview.json`, each task's runs (`/v1/tasks/:name/runs`, or CTS's
 * task events when the daemon has no run history), `/v1/status/cluster`, and follows
 * `GET /v1/events` with an EventSource: every event reloads what it touched and is announced in
 * the polite live region. Task cards are kept across updates, so open details and focus survive.
 */

export const PAGE_SCRIPT = `"use strict";
(function () {
  var RUNS_SHOWN = 5;
  var state = { overview: null, runsApi: true, runs: {}, cards: {}, pending: null, dirty: {}, all: true, source: null };
  var ui = window.ctsUi;
  var $ = ui.$, el = ui.el, clear = ui.clear, announce = ui.announce, timeEl = ui.timeEl, badge = ui.badge;
  var statusKind = ui.statusKind, getJson = ui.getJson, runItem = ui.runItem, eventItem = ui.eventItem;

  // ---- runs of one task: the run history API when the daemon has it, else CTS's task events ----
  function loadRuns(name) {
    var encoded = encodeURIComponent(name);
    var viaEvents = function () {
      return getJson("/v1/status/tasks/" + encoded + "?include=events").then(function (answer) {
        var entry = answer.body && answer.body[name];
        return { kind: "events", items: entry && entry.events ? entry.events.slice(0, RUNS_SHOWN) : [] };
      });
    };
    if (!state.runsApi) return viaEvents();
    return getJson("/v1/tasks/" + encoded + "/runs?limit=" + RUNS_SHOWN).then(function (answer) {
      if (answer.status === 200 && answer.body && Array.isArray(answer.body.runs)) return { kind: "runs", items: answer.body.runs };
      // No such route (an older daemon): CTS's events from now on. A 404 for a task deleted
      // meanwhile names the task, and keeps the route in use.
      var message = answer.body && answer.body.error ? String(answer.body.error.message) : "";
      if (answer.status === 400 || answer.status === 405 || (answer.status === 404 && /^no (endpoint|handler)/.test(message))) state.runsApi = false;
      return viaEvents();
    });
  }

  // ---- one card per task, kept across updates so open details and focus survive ----
  function card(task) {
    var existing = state.cards[task.name];
    if (existing) return existing;
    var id = "task-" + Object.keys(state.cards).length;
    var parts = {
      root: el("article", { className: "card", "aria-labelledby": id + "-name" }),
      name: el("h3", { id: id + "-name", text: task.name }),
      badges: el("div", { className: "badges" }),
      description: el("p", { className: "muted" }),
      facts: el("dl", { className: "facts" }),
      error: el("p", { className: "error", role: "note" }),
      runsTitle: el("summary"),
      runs: el("ol", { className: "runs" }),
    };
    parts.root.appendChild(el("div", { className: "card-head" }, [parts.name, parts.badges]));
    parts.root.appendChild(parts.description);
    parts.root.appendChild(parts.facts);
    parts.root.appendChild(parts.error);
    parts.root.appendChild(el("details", null, [parts.runsTitle, parts.runs]));
    state.cards[task.name] = parts;
    return parts;
  }

  function fact(dl, term, value) {
    dl.appendChild(el("dt", { text: term }));
    dl.appendChild(el("dd", null, [value]));
  }

  function renderTask(task) {
    var parts = card(task);
    parts.root.setAttribute("data-status", task.status);
    clear(parts.badges);
    parts.badges.appendChild(badge(task.status, statusKind(task.status)));
    parts.badges.appendChild(badge(task.enabled ? "enabled" : "disabled", task.enabled ? "" : "warn"));
    if (task.running) parts.badges.appendChild(badge("running", "info"));
    if (task.deleting) parts.badges.appendChild(badge("deleting", "warn"));
    parts.description.textContent = task.description || "";
    parts.description.hidden = !task.description;
    clear(parts.facts);
    fact(parts.facts, "Condition", el("span", null, [task.condition, task.cron ? " " : "", task.cron ? el("code", { text: task.cron }) : null]));
    var last = task.last_run;
    fact(parts.facts, "Last run", last
      ? el("span", null, [timeEl(last.end_time || last.start_time), " · ", last.skipped ? "skipped (inputs unchanged)" : last.success ? "succeeded" : "failed", last.trigger ? " · " + last.trigger : ""])
      : document.createTextNode("never"));
    if (task.condition === "schedule") fact(parts.facts, "Next run", task.next_run ? timeEl(task.next_run) : document.createTextNode(task.enabled ? "none" : "disabled"));
    var failure = last && !last.success && last.error ? last.error : "";
    parts.error.textContent = failure ? "Last run failed: " + failure : "";
    parts.error.hidden = !failure;
    var runs = state.runs[task.name];
    clear(parts.runs);
    if (!runs) {
      parts.runsTitle.textContent = "Recent runs";
    } else {
      var items = runs.items || [];
      parts.runsTitle.textContent = "Recent runs (" + items.length + ")";
      if (!items.length) parts.runs.appendChild(el("li", { className: "muted", text: "No runs yet." }));
      items.forEach(function (item) { parts.runs.appendChild(runs.kind === "runs" ? runItem(item) : eventItem(item)); });
    }
    return parts.root;
  }

  function renderOverview(overview) {
    state.overview = overview;
    var leader = overview.leader ? overview.leader.id : "unknown";
    var stale = overview.leader_stale_since ? ", last confirmed " + ago(overview.leader_stale_since) + ": Consul is unreachable" : "";
    $("instance").textContent = "Instance " + overview.instance_id + (overview.is_leader ? " (leader)" : " (follower; leader: " + leader + stale + ")");
    $("version").textContent = "cts-runtime " + overview.version;
    var note = $("tasks-note");
    var list = $("tasks");
    if (!overview.tasks) {
      note.hidden = false;
      note.textContent = "This instance is a follower: tasks run on the leader " + leader + (overview.leader && overview.leader.address ? " at " + overview.leader.address : "") + ". Open the leader's status page to see them.";
      clear(list);
      state.cards = {};
    } else {
      note.hidden = overview.tasks.length > 0;
      note.textContent = overview.tasks.length ? "" : "No tasks are configured.";
      var names = {};
      overview.tasks.forEach(function (task) { names[task.name] = true; });
      Object.keys(state.cards).forEach(function (name) {
        if (!names[name]) { state.cards[name].root.remove(); delete state.cards[name]; delete state.runs[name]; }
      });
      overview.tasks.forEach(function (task, index) {
        var node = renderTask(task);
        if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
      });
    }
    renderConsul(overview.consul);
  }

  function renderConsul(consul) {
    var box = $("consul");
    clear(box);
    if (!consul) return;
    box.appendChild(el("div", { className: "panel" }, consul.healthy
      ? [badge("connected", "ok"), " since ", timeEl(consul.since)]
      : [badge("unreachable", "bad"), " since ", timeEl(consul.since), " · " + consul.failures + " failed attempts",
        consul.last_error ? el("p", { className: "error", text: consul.last_error }) : null]));
  }

  function renderCluster(answer) {
    var box = $("cluster");
    clear(box);
    if (answer.status === 405) {
      box.appendChild(el("p", { className: "panel", text: "Standalone: no high availability is configured, so this instance always leads." }));
      return;
    }
    if (answer.status !== 200 || !answer.body) {
      var message = answer.body && answer.body.error ? answer.body.error.message : "HTTP " + answer.status;
      box.appendChild(el("p", { className: "error", text: "Cannot read the cluster status: " + message }));
      return;
    }
    box.appendChild(el("p", { className: "muted", text: "Cluster " + answer.body.cluster_name }));
    var consul = answer.body.consul;
    var asOf = consul && !consul.reachable;
    if (asOf) {
      box.appendChild(el("p", { className: "error", text: "Consul is unreachable since " + ago(consul.since) + (answer.body.members_as_of
        ? ": members as last read " + ago(answer.body.members_as_of) : ": the members were never read") + (consul.error ? " (" + consul.error + ")" : "") }));
    }
    var staleLeader = answer.body.leader && answer.body.leader.stale;
    box.appendChild(el("ul", { className: "members", "aria-label": "Members" }, (answer.body.members || []).map(function (member) {
      return el("li", null, [
        el("strong", { text: member.id }), " ",
        member.leader ? badge(staleLeader ? "leader (unconfirmed)" : "leader", staleLeader ? "warn" : "info") : badge("follower"), " ",
        asOf ? badge(member.healthy ? "was healthy" : "was unhealthy") : member.healthy ? badge("healthy", "ok") : badge("unhealthy", "bad"),
        member.address ? el("div", { className: "muted", text: member.address }) : null,
      ]);
    })));
  }

  // ---- loading: everything on ready/resync/refresh, the changed tasks on events ----
  function refresh() {
    var all = state.all;
    var dirty = state.dirty;
    state.all = false;
    state.dirty = {};
    return getJson("/ui/overview.json").then(function (answer) {
      if (answer.status !== 200 || !answer.body) throw new Error("overview answered HTTP " + answer.status);
      var overview = answer.body;
      var tasks = overview.tasks || [];
      var wanted = tasks.filter(function (task) { return all || dirty[task.name] || !state.runs[task.name]; });
      return Promise.all(wanted.map(function (task) {
        return loadRuns(task.name).then(function (runs) { state.runs[task.name] = runs; }, function () {});
      })).then(function () {
        renderOverview(overview);
        if (all || dirty["*cluster"]) return getJson("/v1/status/cluster").then(renderCluster);
      });
    }).catch(function (error) {
      $("instance").textContent = "Cannot load the status: " + error.message;
    });
  }

  function schedule(task) {
    if (task === "*") state.all = true;
    else state.dirty[task] = true;
    if (state.pending) return;
    // Events come in bursts (a run starts, ends, the status changes): one reload per burst.
    state.pending = setTimeout(function () {
      state.pending = null;
      refresh();
    }, 150);
  }

  function setLive(kind, text) {
    var node = $("live-state");
    node.setAttribute("data-state", kind);
    node.textContent = text;
  }

  function listen() {
    if (typeof EventSource === "undefined") { setLive("down", "Live updates unavailable"); return; }
    var source = new EventSource("/v1/events");
    state.source = source;
    source.onopen = function () { setLive("live", "Live"); };
    source.onerror = function () { setLive(source.readyState === 2 ? "down" : "connecting", source.readyState === 2 ? "Disconnected" : "Reconnecting…"); };
    // Loaded on ready (not before connecting), so nothing published in between is missed.
    source.addEventListener("ready", function () { setLive("live", "Live"); schedule("*"); });
    source.addEventListener("resync", function () { schedule("*"); });
    function data(event) { try { return JSON.parse(event.data); } catch (e) { return {}; } }
    ["task.status", "task.created", "task.deleted", "run.started"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        var body = data(event);
        var task = body.task || (body.run && body.run.task);
        if (type === "task.status") announce("Task " + task + " is " + body.status + (body.enabled === false ? " (disabled)" : ""));
        if (type === "task.created") announce("Task " + task + " was created");
        if (type === "task.deleted") announce("Task " + task + " was deleted");
        schedule(task || "*");
      });
    });
    source.addEventListener("run.ended", function (event) {
      var run = data(event).run || {};
      announce("Task " + run.task + ": run " + (run.outcome || "ended") + (run.error ? ": " + run.error : ""));
      schedule(run.task || "*");
    });
    source.addEventListener("leadership", function (event) {
      var body = data(event);
      announce("Instance " + body.instance_id + (body.is_leader ? " leads" : " stepped down"));
      state.dirty["*cluster"] = true;
      schedule("*");
    });
    source.addEventListener("consul.connection", function (event) {
      announce(data(event).state === "lost" ? "Connection to Consul lost" : "Connection to Consul restored");
      schedule("*");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("refresh").addEventListener("click", function () { schedule("*"); announce("Refreshing"); });
    // A first paint at once; the stream's ready event reloads, so events in between are not lost.
    schedule("*");
    listen();
  });
})();
`;
