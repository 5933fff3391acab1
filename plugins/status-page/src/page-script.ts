/**
 * @module The status page's script (plain ES5-style JavaScript, no build step, no dependencies):
 * loads `/ui/overview.json`, each task's runs (`/v1/tasks/:name/runs`, or CTS's task events
 * when the daemon has no run history), `/v1/status/cluster`, and follows `GET /v1/events` with an
 * EventSource: every event reloads what it touched and is announced in the polite live region.
 * Built with DOM calls and textContent only, so no daemon data is ever parsed as HTML.
 */

export const PAGE_SCRIPT = `"use strict";
(function () {
  var RUNS_SHOWN = 5;
  var state = { overview: null, runsApi: true, runs: {}, cards: {}, pending: null, dirty: {}, all: true, source: null };

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var key in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, key) || attrs[key] === undefined || attrs[key] === null) continue;
        if (key === "text") node.textContent = attrs[key];
        else if (key === "className") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      }
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function announce(text) {
    var region = $("announcer");
    region.textContent = "";
    // A fresh text node after a tick makes screen readers announce repeated messages too.
    setTimeout(function () { region.textContent = text; }, 50);
  }
  function timeEl(iso) {
    if (!iso) return document.createTextNode("—");
    var date = new Date(iso);
    return el("time", { datetime: iso, text: isNaN(date.getTime()) ? iso : date.toLocaleString() });
  }
  function duration(ms) {
    if (typeof ms !== "number") return "";
    return ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(1) + " s";
  }
  function badge(text, kind) { return el("span", { className: "badge " + (kind || ""), text: text }); }
  function statusKind(status) {
    return status === "successful" ? "ok" : status === "errored" || status === "critical" ? "bad" : "warn";
  }
  function getJson(path) {
    return fetch(path, { headers: { accept: "application/json" }, cache: "no-store" }).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
        return { status: response.status, body: body };
      });
    });
  }

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
      if (answer.status === 404 || answer.status === 405) state.runsApi = false;
      return viaEvents();
    });
  }

  function changeLines(change) {
    var lines = [];
    if (!change) return lines;
    if (change.first) lines.push("first run: every input is new");
    function keyed(label, part, fmt) {
      if (!part) return;
      (part.added || []).forEach(function (x) { lines.push(label + " added: " + x); });
      (part.removed || []).forEach(function (x) { lines.push(label + " removed: " + x); });
      (part.changed || []).forEach(function (x) { lines.push(label + " changed: " + fmt(x)); });
    }
    keyed("service instance", change.services, function (x) { return x.id + (x.fields && x.fields.length ? " (" + x.fields.join(", ") + ")" : ""); });
    keyed("KV key", change.consul_kv, String);
    keyed("catalog service", change.catalog_services, function (x) { return x + " (tags)"; });
    return lines;
  }

  function runItem(run) {
    var kind = run.outcome === "applied" ? "ok" : run.outcome === "failed" ? "bad" : run.outcome === "running" ? "info" : "warn";
    var trigger = run.trigger ? run.trigger.kind + (run.trigger.detail ? ": " + run.trigger.detail : "") : "";
    var lines = changeLines(run.change);
    var plan = run.plan ? "plan: +" + run.plan.add + " ~" + run.plan.change + " -" + run.plan.destroy : "";
    return el("li", null, [
      el("div", null, [badge(run.outcome, kind), " ", timeEl(run.started_at), run.duration_ms !== undefined ? " · " + duration(run.duration_ms) : "", trigger ? " · " + trigger : ""]),
      plan ? el("div", { className: "muted", text: plan }) : null,
      lines.length ? el("ul", { className: "changes", "aria-label": "Input changes" }, lines.map(function (line) { return el("li", { text: line }); }))
        : el("div", { className: "muted", text: "no input change recorded" }),
      run.error ? el("p", { className: "error", text: run.error }) : null,
    ]);
  }

  function eventItem(event) {
    var trigger = event.trigger ? event.trigger.kind + (event.trigger.detail ? ": " + event.trigger.detail : "") : "";
    var result = event.skipped ? badge("skipped", "warn") : event.success ? badge("succeeded", "ok") : badge("failed", "bad");
    return el("li", null, [
      el("div", null, [result, " ", timeEl(event.start_time), trigger ? " · " + trigger : ""]),
      event.error && event.error.message ? el("p", { className: "error", text: event.error.message }) : null,
    ]);
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
    $("instance").textContent = "Instance " + overview.instance_id + (overview.is_leader ? " (leader)" : " (follower; leader: " + leader + ")");
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
    box.appendChild(el("ul", { className: "members", "aria-label": "Members" }, (answer.body.members || []).map(function (member) {
      return el("li", null, [
        el("strong", { text: member.id }), " ",
        member.leader ? badge("leader", "info") : badge("follower"), " ",
        member.healthy ? badge("healthy", "ok") : badge("unhealthy", "bad"),
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
