/**
 * @module The overview page (`/ui/`, `/ui/overview.js`): a status summary whose counts filter the
 * list, a filter by status and by name (kept in the URL, so a filtered view is a permalink), one
 * row per task (status, drift when found, last run with a link to its run page, the run in
 * progress, next run), and the HA cluster and Consul connection. A failed last run shows its first line and a link, never
 * Terraform's output. Rows are kept across updates, so focus stays where it was.
 */

export const PAGE_OVERVIEW_SCRIPT = `"use strict";
(function () {
  var ui = window.ctsUi;
  var el = ui.el, clear = ui.clear, badge = ui.badge;
  var STATUSES = ["successful", "errored", "critical", "unknown"];
  var FILTERS = [["", "All"], ["successful", "Successful"], ["errored", "Errored"], ["critical", "Critical"], ["unknown", "Unknown"], ["running", "Running"], ["disabled", "Disabled"]];
  var view = { rows: {}, tasks: [], filter: { status: "", q: "" }, parts: null };

  function matches(task, filter) {
    if (filter.q && task.name.toLowerCase().indexOf(filter.q.toLowerCase()) < 0) return false;
    if (!filter.status) return true;
    if (filter.status === "running") return task.running;
    if (filter.status === "disabled") return !task.enabled;
    return task.status === filter.status;
  }

  function readFilter() {
    var params = new URLSearchParams(location.search);
    view.filter = { status: params.get("status") || "", q: params.get("q") || "" };
  }
  function writeFilter() {
    var params = new URLSearchParams();
    if (view.filter.status) params.set("status", view.filter.status);
    if (view.filter.q) params.set("q", view.filter.q);
    var search = params.toString();
    history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
  }

  function build(page) {
    var statusId = ui.uid("filter-status"), nameId = ui.uid("filter-name");
    var select = el("select", { id: statusId }, FILTERS.map(function (f) { return el("option", { value: f[0], text: f[1] }); }));
    var input = el("input", { id: nameId, type: "search", autocomplete: "off", placeholder: "part of a name" });
    var parts = {
      summary: el("ul", { className: "summary", "aria-label": "Tasks by status" }),
      select: select, input: input,
      shown: el("p", { className: "muted", "aria-live": "polite" }),
      note: el("p", { className: "muted", hidden: true }),
      body: el("tbody"),
      table: null,
    };
    parts.table = el("table", { className: "task-table" }, [
      el("caption", { className: "visually-hidden", text: "Tasks" }),
      el("thead", null, [el("tr", null, ["Task", "Status", "Last run", "Next run", "Condition"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
      parts.body,
    ]);
    page.appendChild(ui.section("Summary", [parts.summary]));
    page.appendChild(ui.section("Tasks", [
      el("form", { className: "filters", role: "search", "aria-label": "Filter tasks" }, [
        el("label", { "for": statusId, text: "Status" }), select,
        el("label", { "for": nameId, text: "Name" }), input,
      ]),
      parts.shown, parts.note, parts.table,
    ]));
    select.value = view.filter.status;
    input.value = view.filter.q;
    select.addEventListener("change", function () { view.filter.status = select.value; writeFilter(); renderRows(); });
    input.addEventListener("input", function () { view.filter.q = input.value.trim(); writeFilter(); renderRows(); });
    parts.table.closest("section").querySelector("form").addEventListener("submit", function (event) { event.preventDefault(); });
    view.parts = parts;
  }

  function renderSummary(tasks) {
    var parts = view.parts;
    clear(parts.summary);
    var counts = { running: 0, disabled: 0 };
    tasks.forEach(function (task) {
      counts[task.status] = (counts[task.status] || 0) + 1;
      if (task.running) counts.running++;
      if (!task.enabled) counts.disabled++;
    });
    parts.summary.appendChild(el("li", null, [el("strong", { text: ui.count(tasks.length, "task", "tasks") })]));
    STATUSES.concat(["running", "disabled"]).forEach(function (status) {
      if (!counts[status]) return;
      var item = el("button", { type: "button", className: "linkish", "aria-pressed": view.filter.status === status ? "true" : "false" }, [
        STATUSES.indexOf(status) >= 0 ? badge(status, ui.statusKind(status)) : badge(status, status === "running" ? "info" : "warn"), " " + counts[status],
      ]);
      item.addEventListener("click", function () {
        view.filter.status = view.filter.status === status ? "" : status;
        parts.select.value = view.filter.status;
        writeFilter();
        renderRows();
      });
      parts.summary.appendChild(el("li", null, [item]));
    });
  }

  function lastRunCell(task) {
    var last = task.last_run;
    if (!last) return el("span", { className: "muted", text: "never" });
    var word = last.skipped ? "skipped (inputs unchanged)" : last.success ? "succeeded" : "failed";
    var when = ui.timeEl(last.end_time || last.start_time);
    var parts = [last.run_id ? ui.link(ui.runHref(task.name, last.run_id), word, { "aria-label": word + ": run of " + task.name }) : word, " · ", when];
    if (last.trigger) parts.push(" · " + last.trigger);
    if (!last.success && last.error) {
      parts.push(el("span", { className: "error-line", text: ui.firstLine(last.error, 140) }));
    }
    return el("div", null, parts);
  }

  function row(task) {
    var existing = view.rows[task.name];
    var cells = existing || {
      tr: el("tr"), name: el("th", { scope: "row" }), status: el("td", { "data-label": "Status" }), last: el("td", { "data-label": "Last run" }),
      next: el("td", { "data-label": "Next run" }), condition: el("td", { "data-label": "Condition" }),
    };
    if (!existing) {
      [cells.name, cells.status, cells.last, cells.next, cells.condition].forEach(function (cell) { cells.tr.appendChild(cell); });
      view.rows[task.name] = cells;
    }
    cells.tr.setAttribute("data-status", task.status);
    clear(cells.name);
    cells.name.appendChild(ui.link(ui.taskHref(task.name), task.name));
    if (task.description) cells.name.appendChild(el("span", { className: "muted block", text: task.description }));
    clear(cells.status);
    cells.status.appendChild(el("span", { className: "badges" }, [
      badge(task.status, ui.statusKind(task.status)),
      task.enabled ? null : badge("disabled", "warn"),
      task.deleting ? badge("deleting", "warn") : null,
      ui.drift.overviewBadge(task),
      task.current_run ? ui.link(ui.runHref(task.name, task.current_run.id), "running", { className: "badge info", "aria-label": "running: live view of " + task.name + "'s run" }) : null,
    ]));
    clear(cells.last);
    cells.last.appendChild(lastRunCell(task));
    clear(cells.next);
    cells.next.appendChild(task.condition === "schedule" ? (task.next_run ? ui.timeEl(task.next_run) : document.createTextNode(task.enabled ? "none" : "disabled")) : el("span", { className: "muted", text: "on change" }));
    clear(cells.condition);
    cells.condition.appendChild(el("span", null, [task.condition, task.cron ? " " : "", task.cron ? el("code", { text: task.cron }) : null]));
    return cells.tr;
  }

  function renderRows() {
    var parts = view.parts;
    var shown = view.tasks.filter(function (task) { return matches(task, view.filter); });
    var names = {};
    view.tasks.forEach(function (task) { names[task.name] = true; });
    Object.keys(view.rows).forEach(function (name) { if (!names[name]) { view.rows[name].tr.remove(); delete view.rows[name]; } });
    shown.forEach(function (task, index) {
      var tr = row(task);
      if (parts.body.children[index] !== tr) parts.body.insertBefore(tr, parts.body.children[index] || null);
    });
    while (parts.body.children.length > shown.length) parts.body.removeChild(parts.body.lastChild);
    parts.shown.textContent = "Showing " + shown.length + " of " + ui.count(view.tasks.length, "task", "tasks") + (view.filter.status || view.filter.q ? " (filtered)" : "");
    parts.table.hidden = shown.length === 0;
    renderSummary(view.tasks);
  }

  function renderSide(overview) {
    ui.$("side").hidden = false;
    ui.$("layout").classList.add("with-side");
    var consul = overview.consul, box = ui.$("consul");
    clear(box);
    box.appendChild(el("div", { className: "panel" }, consul.healthy
      ? [badge("connected", "ok"), " since ", ui.timeEl(consul.since)]
      : [badge("unreachable", "bad"), " since ", ui.timeEl(consul.since), " · " + consul.failures + " failed attempts",
        consul.last_error ? el("p", { className: "error", text: consul.last_error }) : null]));
    if (!overview.high_availability) {
      clear(ui.$("cluster"));
      ui.$("cluster").appendChild(el("p", { className: "panel", text: "Standalone: no high availability is configured, so this instance always leads." }));
    }
  }

  function renderCluster(answer) {
    var box = ui.$("cluster");
    clear(box);
    if (answer.status !== 200 || !answer.body) {
      box.appendChild(el("p", { className: "error", text: "Cannot read the cluster status: " + ui.api.errorOf(answer) }));
      return;
    }
    box.appendChild(el("p", { className: "muted", text: "Cluster " + answer.body.cluster_name }));
    // While Consul is unreachable the members are those last read: said so, never shown as live.
    var consul = answer.body.consul;
    var asOf = consul && !consul.reachable;
    if (asOf) {
      box.appendChild(el("p", { className: "error", text: "Consul is unreachable since " + ui.ago(consul.since) + (answer.body.members_as_of
        ? ": members as last read " + ui.ago(answer.body.members_as_of) : ": the members were never read") + (consul.error ? " (" + consul.error + ")" : "") }));
    }
    var staleLeader = answer.body.leader && answer.body.leader.stale;
    box.appendChild(el("ul", { className: "members", "aria-label": "Members" }, (answer.body.members || []).map(function (member) {
      return el("li", null, [el("strong", { text: member.id }), " ",
        member.leader ? badge(staleLeader ? "leader (unconfirmed)" : "leader", staleLeader ? "warn" : "info") : badge("follower"), " ",
        asOf ? badge(member.healthy ? "was healthy" : "was unhealthy") : member.healthy ? badge("healthy", "ok") : badge("unhealthy", "bad"),
        member.address ? el("div", { className: "muted", text: member.address }) : null]);
    })));
  }

  // Loads and shows everything; called on ready, resync, refresh and (debounced) on events.
  function load(page, all) {
    return ui.api.get("/ui/overview.json").then(function (answer) {
      if (answer.status !== 200 || !answer.body) throw new Error(ui.api.errorOf(answer));
      var overview = answer.body;
      if (!view.parts) build(page);
      renderSide(overview);
      var note = view.parts.note;
      if (!overview.tasks) {
        var leader = overview.leader ? overview.leader.id + (overview.leader.address ? " at " + overview.leader.address : "") : "unknown";
        note.hidden = false;
        note.textContent = "This instance is a follower: tasks run on the leader " + leader + ". Open the leader's status page to see them.";
        view.tasks = [];
      } else {
        note.hidden = overview.tasks.length > 0;
        note.textContent = overview.tasks.length ? "" : "No tasks are configured.";
        view.tasks = overview.tasks;
      }
      renderRows();
      if (overview.high_availability && all) return ui.api.get("/v1/status/cluster").then(renderCluster);
      return overview;
    });
  }

  ui.pages = ui.pages || {};
  ui.pages.overview = {
    title: function () { return "cts-runtime status"; },
    start: function (page) { readFilter(); return load(page, true); },
    reload: function (page, all) { return load(page, all); },
    // Which events concern this page: all task and run events, leadership and Consul.
    wants: function (type) { return type !== "run.output"; },
  };
})();
`;
