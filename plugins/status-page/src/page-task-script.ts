/**
 * @module A task's page (`/ui/tasks/<name>`, `/ui/task.js`): its status, actions (run now,
 * inspect, enable, disable: CTS's `PATCH /v1/tasks/<name>`, the same API and token as any client),
 * its configuration in brief (module, driver-independent fields, condition and module inputs,
 * variables by name only: their values may be secrets), the outputs of its last successful apply,
 * and all its runs, 20 a page (`?before=<id>` pages are permalinks), with the total; its drift
 * (drift.js), a change of its configuration (task-edit.js) and its deletion, with or without
 * destroying its resources (task-delete.js), after which the page says the task is gone.
 */

export const PAGE_TASK_SCRIPT = `"use strict";
(function () {
  var ui = window.ctsUi;
  var el = ui.el, clear = ui.clear, badge = ui.badge, runs = ui.runs;
  var PAGE_SIZE = 20;
  var view = null;

  function breadcrumb(name) {
    return el("nav", { "aria-label": "Breadcrumb", className: "crumbs" }, [el("ol", null, [
      el("li", null, [ui.link("/ui/", "All tasks")]), el("li", { "aria-current": "page", text: name }),
    ])]);
  }

  function fieldsText(value) {
    if (value === null || value === undefined || value === "" || value === false) return "";
    if (Array.isArray(value)) return value.map(String).join(", ");
    if (typeof value === "object") return Object.keys(value).filter(function (k) { return fieldsText(value[k]) !== ""; }).map(function (k) { return k + " = " + fieldsText(value[k]); }).join("; ");
    return String(value);
  }

  function renderConfig(task, box) {
    clear(box);
    var dl = el("dl", { className: "facts" });
    ui.fact(dl, "Module", el("code", { text: task.module + (task.version ? " (version " + task.version + ")" : "") }));
    Object.keys(task.condition || {}).forEach(function (type) { ui.fact(dl, "Condition", type + (fieldsText(task.condition[type]) ? ": " + fieldsText(task.condition[type]) : "")); });
    Object.keys(task.module_input || {}).forEach(function (type) { ui.fact(dl, "Module input", type + (fieldsText(task.module_input[type]) ? ": " + fieldsText(task.module_input[type]) : "")); });
    ui.fact(dl, "Providers", (task.providers || []).join(", ") || "none");
    var names = Object.keys(task.variables || {}).sort();
    ui.fact(dl, "Variables", names.length ? names.join(", ") : "none");
    if (task.buffer_period) ui.fact(dl, "Buffer period", task.buffer_period.enabled ? task.buffer_period.min + " to " + task.buffer_period.max : "off");
    box.appendChild(dl);
  }

  function renderOutputs(answer, box) {
    clear(box);
    var outputs = answer.outputs;
    if (!outputs || !Object.keys(outputs).length) { box.appendChild(el("p", { className: "muted", text: "No outputs known: the module declares none, or no apply has succeeded since the daemon started keeping them." })); return; }
    box.appendChild(el("p", { className: "muted" }, ["From ", ui.link(ui.runHref(view.name, answer.outputs_run_id), "the last successful apply"), "."]));
    box.appendChild(ui.runOutputs(outputs));
  }

  function renderStatus(overview, box) {
    clear(box);
    var task = overview.tasks && overview.tasks[0];
    if (!task) { box.appendChild(el("p", { className: "error", text: overview.is_leader ? "This task does not exist (any more)." : "This instance is a follower: open the leader's status page." })); return null; }
    box.appendChild(el("p", { className: "badges" }, [badge(task.status, ui.statusKind(task.status)), badge(task.enabled ? "enabled" : "disabled", task.enabled ? "" : "warn"),
      task.current_run ? ui.link(ui.runHref(task.name, task.current_run.id), "running: live view", { className: "badge info" }) : null,
      task.deleting ? badge("deleting", "warn") : null]));
    if (task.description) box.appendChild(el("p", { className: "muted", text: task.description }));
    var dl = el("dl", { className: "facts" });
    var last = task.last_run;
    ui.fact(dl, "Last run", last ? el("span", null, [last.run_id ? ui.link(ui.runHref(task.name, last.run_id), last.skipped ? "skipped (inputs unchanged)" : last.success ? "succeeded" : "failed") : (last.success ? "succeeded" : "failed"), " · ", ui.timeEl(last.end_time)]) : "never");
    if (last && !last.success && last.error) ui.fact(dl, "Error", el("span", { className: "error-line", text: ui.firstLine(last.error, 200) }));
    if (task.condition === "schedule") ui.fact(dl, "Next run", task.next_run ? ui.timeEl(task.next_run) : task.enabled ? "none" : "disabled");
    box.appendChild(dl);
    return task;
  }

  function runRow(run) {
    var started = ui.link(ui.runHref(view.name, run.id), new Date(run.started_at).toLocaleString(), { "aria-label": "Run started " + new Date(run.started_at).toLocaleString() });
    var failed = (run.outcome === "failed" || run.outcome === "cancelled") && run.error;
    var outcome = el("td", null, [runs.outcomeBadge(run), failed ? el("span", { className: "error-line", text: ui.firstLine(run.error, 120) }) : null,
      run.drift ? el("span", { className: "muted block", text: runs.driftText(run) }) : null,
      run.outcome === "skipped" ? el("span", { className: "muted block", text: runs.skipText(run) }) : null]);
    outcome.setAttribute("data-label", "Outcome");
    return el("tr", { "data-outcome": run.outcome }, [
      el("th", { scope: "row" }, [started]), outcome, el("td", { "data-label": "Kind", text: runs.kindText(run) }),
      el("td", { "data-label": "Why it ran", text: runs.triggerText(run.trigger) }),
      el("td", { "data-label": "Input change", text: runs.changeSummary(run.change) }), el("td", { "data-label": "Resources", text: runs.planText(run.plan) }),
      el("td", { "data-label": "Duration", text: run.outcome === "running" ? "in progress" : ui.duration(run.duration_ms) }),
    ]);
  }

  function renderRuns(answer, box, before) {
    clear(box);
    if (answer.status !== 200 || !answer.body || !Array.isArray(answer.body.runs)) {
      box.appendChild(el("p", { className: "error", text: "Cannot read the run history: " + ui.api.errorOf(answer) }));
      return;
    }
    var page = answer.body;
    var total = typeof page.total === "number" ? page.total : null;
    view.runsHeading.textContent = "Runs" + (total !== null ? " (" + total.toLocaleString() + " in all)" : "");
    if (!page.runs.length) { box.appendChild(el("p", { className: "muted", text: before ? "No older runs." : "No runs yet." })); }
    else {
      box.appendChild(el("table", { className: "run-table" }, [
        el("caption", { className: "visually-hidden", text: "Runs of " + view.name + ", newest first" }),
        el("thead", null, [el("tr", null, ["Started", "Outcome", "Kind", "Why it ran", "Input change", "Resources (+ ~ −)", "Duration"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
        el("tbody", null, page.runs.map(runRow)),
      ]));
    }
    var pager = el("nav", { className: "pager", "aria-label": "Pages of runs" }, [
      before ? ui.link(ui.taskHref(view.name), "Newest runs") : null,
      page.next ? ui.link(ui.taskHref(view.name) + "?before=" + encodeURIComponent(page.next), "Older runs") : null,
    ]);
    if (pager.children.length) box.appendChild(pager);
  }

  function act(label, run, enabled, after) {
    var message = view.message;
    message.textContent = label + "…";
    view.busy = true;
    view.buttons.forEach(function (entry) { entry.button.setAttribute("aria-disabled", "true"); });
    var path = "/v1/tasks/" + encodeURIComponent(view.name) + (run ? "?run=" + run : "");
    return ui.api.send("PATCH", path, { enabled: enabled }).then(function (answer) {
      var located = answer.headers && answer.headers.get("content-location");
      if (answer.status === 200 && run === "inspect" && located) {
        message.textContent = "Inspection done; opening its plan.";
        location.assign("/ui" + located.replace(/^\\/v1/, ""));
        return;
      }
      message.textContent = answer.status === 200 ? after : label + " failed: " + ui.firstLine(ui.api.errorOf(answer), 300);
      ui.announce(message.textContent);
    }, function (error) {
      message.textContent = label + " failed: " + error.message;
    }).then(function () { view.busy = false; return load(false); });
  }

  // Built once, then updated in place: focus and the last message survive reloads.
  function renderActions(task, box) {
    if (!view.buttons.length) {
      view.message = el("p", { className: "action-message", role: "status" });
      view.buttons = ["now", "inspect", "toggle"].map(function (kind) {
        var hint = el("span", { id: ui.uid("hint"), className: "muted" });
        var button = el("button", { type: "button", "aria-describedby": hint.id });
        button.addEventListener("click", function () {
          // aria-disabled, not disabled: a disabled button drops the keyboard focus it had.
          if (button.getAttribute("aria-disabled") === "true") return;
          var enabled = view.task.enabled;
          if (kind === "now") act("Run now", "now", true, "Run finished; it is the newest run below.");
          else if (kind === "inspect") act("Inspect", "inspect", true, "");
          else act(enabled ? "Disable" : "Enable", "", !enabled, enabled ? "Task disabled." : "Task enabled.");
        });
        box.appendChild(el("div", { className: "action" }, [button, hint]));
        return { kind: kind, button: button, hint: hint };
      });
      box.appendChild(view.message);
    }
    view.task = task;
    view.buttons.forEach(function (entry) {
      var label, hint, usable = !task.running && !view.busy;
      if (entry.kind === "now") { label = "Run now"; hint = task.enabled ? "Applies the task now (PATCH ?run=now)." : "Enable the task to run it."; usable = usable && task.enabled; }
      else if (entry.kind === "inspect") { label = "Inspect"; hint = "Plans with the current inputs without applying; the plan opens as a run page."; }
      else { label = task.enabled ? "Disable" : "Enable"; hint = task.enabled ? "Stops runs until it is enabled again." : "Runs again when its inputs change."; }
      if (task.running) hint = "The task is running; actions wait until it ends.";
      entry.button.textContent = label;
      entry.button.setAttribute("aria-disabled", usable ? "false" : "true");
      entry.hint.textContent = hint;
    });
  }

  // The drift section, with the newest check's record (read once per check: it says whether auto_correct applied).
  function renderDrift(task) {
    var drift = task.drift;
    var id = drift && drift.run_id;
    if (!id || (view.check && view.check.id === id)) { ui.drift.render(view.drift, view.name, drift, id ? view.check : null); return null; }
    return ui.api.get("/v1/tasks/" + encodeURIComponent(view.name) + "/runs/" + encodeURIComponent(id)).then(function (answer) {
      view.check = answer.status === 200 && answer.body ? answer.body.run : null;
      ui.drift.render(view.drift, view.name, drift, view.check);
    });
  }

  // After a delete from this page: the page says so and stops reading the task.
  function gone(destroyed) {
    view.gone = true;
    var page = ui.$("page");
    clear(page);
    var note = el("p", { className: "gone", tabindex: "-1", text: "Task " + view.name + " was deleted" + (destroyed ? ", after its resources were destroyed." : "; its resources were left as they are.") });
    page.appendChild(breadcrumb(view.name));
    page.appendChild(note);
    page.appendChild(el("p", null, [ui.link("/ui/", "Back to all tasks")]));
    page.setAttribute("data-gone", "true");
    note.focus();
    ui.announce(note.textContent);
  }

  function load(all) {
    if (view.gone) return Promise.resolve();
    var name = view.name, encoded = encodeURIComponent(name);
    var runsPath = "/v1/tasks/" + encoded + "/runs?limit=" + PAGE_SIZE + (view.before ? "&before=" + encodeURIComponent(view.before) : "");
    return Promise.all([
      ui.api.get("/ui/overview.json?task=" + encoded), all ? ui.api.get("/v1/tasks/" + encoded) : Promise.resolve(null), ui.api.get(runsPath),
    ]).then(function (answers) {
      var task = renderStatus(answers[0].body || {}, view.status);
      if (task) { renderActions(task, view.actions); renderDrift(task); }
      if (answers[1]) {
        if (answers[1].status === 200 && answers[1].body) { renderConfig(answers[1].body.task, view.config); renderOutputs(answers[1].body, view.outputs); }
        else { clear(view.config); view.config.appendChild(el("p", { className: "error", text: "Cannot read the task: " + ui.api.errorOf(answers[1]) })); }
      }
      renderRuns(answers[2], view.runs, view.before);
    });
  }

  function start(page, name) {
    view = { name: name, before: new URLSearchParams(location.search).get("before") || "", buttons: [] };
    view.status = el("div");
    view.actions = el("div", { className: "actions" });
    view.config = el("div", null, [el("p", { className: "muted", text: "Loading…" })]);
    view.outputs = el("div");
    view.runs = el("div", null, [el("p", { className: "muted", text: "Loading…" })]);
    var runsSection = ui.section("Runs", [view.runs]);
    view.runsHeading = runsSection.querySelector("h2");
    view.drift = el("div", null, [el("p", { className: "muted", text: "Loading…" })]);
    var change = { name: name, reload: load, gone: gone };
    [breadcrumb(name), view.status, ui.section("Actions", [view.actions]), ui.section("Drift", [view.drift]), ui.section("Configuration", [view.config]),
      ui.section("Change the configuration", [ui.taskEdit.build(change)]), ui.section("Outputs", [view.outputs]), runsSection,
      ui.section("Delete", [ui.taskDelete.build(change)])].forEach(function (node) { page.appendChild(node); });
    return load(true);
  }

  ui.pages = ui.pages || {};
  ui.pages.task = {
    title: function (name) { return "Task " + name; },
    start: start,
    reload: function (page, all) { return load(all); },
    wants: function (type, data) { return !view.gone && type !== "run.output" && (!data || !(data.task || (data.run && data.run.task)) || (data.task || data.run.task) === view.name); },
  };
})();
`;
