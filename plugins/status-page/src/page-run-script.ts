/**
 * @module A run's page (`/ui/tasks/<name>/runs/<id>`, `/ui/run.js`): why it ran and what in its
 * inputs changed, its outcome, error, timing by phase, the resources it touched, the module's
 * outputs, and each phase's output (plan, apply), saying how much was left out; a drift check's
 * finding, a failed destroy's resources left and the run hooks' reports (run-findings.js). A run in progress
 * shows its output as it comes: `run.output` events append exactly the bytes the page lacks.
 */

export const PAGE_RUN_SCRIPT = `"use strict";
(function () {
  var ui = window.ctsUi;
  var el = ui.el, clear = ui.clear, runs = ui.runs;
  var PHASES = [["init", "Init output"], ["plan", "Plan output"], ["apply", "Apply output"]];
  // The run's own phases; init happens when the driver is (re)initialised, often before the run starts.
  var RUN_PHASES = PHASES.slice(1);
  var TITLES = { inspect: "Inspection", "drift-check": "Drift check", destroy: "Destroy" };
  var utf8 = new TextEncoder();
  var view = null;

  function breadcrumb(task, started) {
    return el("nav", { "aria-label": "Breadcrumb", className: "crumbs" }, [el("ol", null, [
      el("li", null, [ui.link("/ui/", "All tasks")]), el("li", null, [ui.link(ui.taskHref(task), task)]),
      el("li", { "aria-current": "page", text: started ? "Run of " + new Date(started).toLocaleString() : "Run" }),
    ])]);
  }

  function phasesText(phases) {
    if (!phases) return "";
    return RUN_PHASES.filter(function (p) { return typeof phases[p[0]] === "number"; }).map(function (p) { return p[0] + " " + ui.duration(phases[p[0]]); }).join(" · ");
  }

  function summary(run) {
    var dl = el("dl", { className: "facts" });
    ui.fact(dl, "Outcome", el("span", null, [runs.outcomeBadge(run), " " + runs.kindText(run)]));
    if (run.outcome === "skipped") ui.fact(dl, "Why skipped", runs.skipText(run));
    ui.fact(dl, "Why it ran", runs.triggerText(run.trigger) || "—");
    ui.fact(dl, "Started", ui.timeEl(run.started_at));
    ui.fact(dl, "Ended", run.ended_at ? ui.timeEl(run.ended_at) : "in progress");
    if (typeof run.duration_ms === "number") ui.fact(dl, "Duration", ui.duration(run.duration_ms) + (phasesText(run.phases_ms) ? " (" + phasesText(run.phases_ms) + ")" : ""));
    if (run.phases_ms && typeof run.phases_ms.init === "number") ui.fact(dl, "Initialisation", ui.duration(run.phases_ms.init) + " (the driver's, before the run)");
    if (run.plan) ui.fact(dl, "Resources", "+" + run.plan.add + " added · ~" + run.plan.change + " changed · −" + run.plan.destroy + " destroyed");
    // A link only to a web address: anything else is shown as text.
    if (run.url) ui.fact(dl, "HCP Terraform run", /^https?:\\/\\//i.test(run.url) ? ui.link(run.url, run.url, { rel: "noreferrer" }) : el("code", { text: run.url }));
    ui.fact(dl, "Instance", run.instance_id);
    ui.fact(dl, "Run id", el("code", { text: run.id }));
    if (run.event_id) ui.fact(dl, "CTS event", el("code", { text: run.event_id }));
    return dl;
  }

  function resources(run) {
    if (!run.resources) return el("p", { className: "muted", text: run.outcome === "running" ? "Known when the run ends." : "Not known: the driver did not report them." });
    if (!run.resources.length) return el("p", { className: "muted", text: "No resource changes." });
    var table = el("table", { className: "kv-table" }, [
      el("caption", { className: "visually-hidden", text: "Resources by address and action" }),
      el("thead", null, [el("tr", null, [el("th", { scope: "col", text: "Address" }), el("th", { scope: "col", text: "Action" })])]),
      el("tbody", null, run.resources.map(function (r) {
        return el("tr", { "data-action": r.action }, [el("th", { scope: "row" }, [el("code", { text: r.address })]), el("td", { "data-label": "Action", text: r.action })]);
      })),
    ]);
    return el("div", null, [table, run.resources_omitted ? el("p", { className: "muted", text: "… and " + ui.count(run.resources_omitted, "more resource", "more resources") + " not listed (a record keeps 1000)." }) : null]);
  }

  // A phase's output box; kept in view.logs so live chunks can be appended.
  function logSection(phase, title, log) {
    var pre = el("pre", { className: "log", tabindex: "0", "aria-label": title, text: log ? log.text : "" });
    var note = el("p", { className: "muted" });
    var state = { pre: pre, note: note, bytes: log ? log.bytes : 0, omitted: log ? log.omitted_bytes || 0 : 0 };
    view.logs[phase] = state;
    updateNote(state);
    return ui.section(title, [note, pre], { className: "log-section" });
  }
  function updateNote(state) {
    state.note.textContent = ui.bytes(state.bytes) + " of output" + (state.omitted ? "; " + ui.bytes(state.omitted) + " left out in the middle (the run record keeps its start and its end)" : "") + ".";
  }

  function appendOutput(data) {
    if (data.run_id !== view.id) return;
    // While the record is being read, chunks wait: the record may or may not hold them yet.
    if (view.loading) { view.pending.push(data); return; }
    if (!view.run) return;
    var state = view.logs[data.phase];
    if (!state) {
      var title = (PHASES.filter(function (p) { return p[0] === data.phase; })[0] || [data.phase, data.phase + " output"])[1];
      view.logsBox.appendChild(logSection(data.phase, title, null));
      state = view.logs[data.phase];
    }
    var size = utf8.encode(data.text).length;
    if (data.offset + size <= state.bytes) return;
    if (data.offset > state.bytes) state.pre.appendChild(document.createTextNode("\\n… " + ui.bytes(data.offset - state.bytes) + " not received here …\\n"));
    var atEnd = state.pre.scrollTop + state.pre.clientHeight >= state.pre.scrollHeight - 4;
    state.pre.appendChild(document.createTextNode(data.text));
    state.bytes = data.offset + size;
    updateNote(state);
    if (atEnd) state.pre.scrollTop = state.pre.scrollHeight;
  }

  function render(run) {
    var page = view.page;
    clear(page);
    view.run = run;
    view.logs = {};
    ui.$("page-title").textContent = (TITLES[run.kind] || (run.kind && run.kind !== "apply" ? run.kind : "Run")) + " of " + run.task;
    document.title = ui.$("page-title").textContent + " · cts-runtime";
    page.appendChild(breadcrumb(run.task, run.started_at));
    if (run.outcome === "running") page.appendChild(el("p", { className: "live-note", text: "In progress: its output appears below as it comes." }));
    page.appendChild(summary(run));
    if (run.error) page.appendChild(ui.section(run.outcome === "cancelled" ? "Why it was cancelled" : "Error", [el("pre", { className: "error log", tabindex: "0", "aria-label": "Error", text: run.error })]));
    ui.runFindings.sections(run).forEach(function (section) { page.appendChild(section); });
    page.appendChild(ui.section("Input changes", [runs.changeList(run)]));
    page.appendChild(ui.section("Resources", [resources(run)]));
    if (run.outputs) page.appendChild(ui.section("Outputs", [Object.keys(run.outputs).length ? ui.runOutputs(run.outputs) : el("p", { className: "muted", text: "The module has no outputs." })]));
    view.logsBox = el("div");
    var logs = run.logs || {};
    PHASES.forEach(function (p) { if (logs[p[0]]) view.logsBox.appendChild(logSection(p[0], p[1], logs[p[0]])); });
    if (!Object.keys(logs).length && run.outcome !== "running") view.logsBox.appendChild(el("p", { className: "muted", text: "No output was recorded for this run." }));
    page.appendChild(view.logsBox);
  }

  function load() {
    var path = "/v1/tasks/" + encodeURIComponent(view.task) + "/runs/" + encodeURIComponent(view.id);
    view.loading = true;
    return ui.api.get(path).then(function (answer) {
      view.loading = false;
      var pending = view.pending;
      view.pending = [];
      if (answer.status !== 200 || !answer.body || !answer.body.run) {
        clear(view.page);
        view.page.appendChild(breadcrumb(view.task, null));
        view.page.appendChild(el("p", { className: "error", text: "Cannot read this run: " + ui.api.errorOf(answer) }));
        return;
      }
      render(answer.body.run);
      pending.forEach(appendOutput);
    }, function (error) { view.loading = false; view.pending = []; throw error; });
  }

  ui.pages = ui.pages || {};
  ui.pages.run = {
    title: function () { return "Run"; },
    start: function (page, task, id) { view = { page: page, task: task, id: id, logs: {}, run: null, loading: false, pending: [] }; return load(); },
    reload: function () { return load(); },
    // Output of this run is appended; its end reloads it; other events do not concern this page.
    wants: function (type, data) {
      if (type === "run.output") { appendOutput(data); return false; }
      if (type === "run.ended" || type === "run.started") return data.run && data.run.id === view.id;
      return false;
    },
  };
})();
`;
