/**
 * @module Changing a task from its page (`/ui/task-edit.js`): "Edit…" opens the task's
 * configuration as `GET /v1/tasks/<name>` answers it, as JSON in a labelled text area. Only the
 * top-level fields that differ are sent (`PATCH /v1/tasks/<name>`, a field removed as `null`, which
 * puts its default back): "Plan the change" with `?run=inspect` (the plan is shown; nothing
 * changes), "Apply the change" with `?run=now`. Text that is not a JSON object is refused here,
 * and the API's error (a 400 names the field) is shown in its words; either way nothing changes.
 * The daemon masks known secrets in its answers: a changed field that holds the mask is refused
 * here, since sending it would replace the secret with the mask.
 */
import { MASKED_SECRET } from "../../../core/plugin-api/mod.ts";

export const PAGE_TASK_EDIT_SCRIPT = `"use strict";
// The task page's edit panel (window.ctsUi.taskEdit).
(function () {
  var ui = window.ctsUi;
  var el = ui.el;
  var MASKED = ${JSON.stringify(MASKED_SECRET)};

  // The top-level fields of edited that differ from original; a field left out becomes null.
  function changedFields(original, edited) {
    var patch = {};
    Object.keys(edited).forEach(function (key) { if (JSON.stringify(edited[key]) !== JSON.stringify(original[key])) patch[key] = edited[key]; });
    Object.keys(original).forEach(function (key) { if (!(key in edited)) patch[key] = null; });
    return patch;
  }

  // ctx: { name, reload(all) }; returns the section's content.
  function build(ctx) {
    var path = "/v1/tasks/" + encodeURIComponent(ctx.name);
    var panelId = ui.uid("edit-panel"), areaId = ui.uid("task-json"), helpId = ui.uid("task-json-help");
    var open = el("button", { type: "button", "aria-expanded": "false", "aria-controls": panelId, text: "Edit…" });
    var area = el("textarea", { id: areaId, rows: "18", spellcheck: "false", autocomplete: "off", "aria-describedby": helpId, className: "task-json" });
    var plan = el("button", { type: "button", text: "Plan the change" });
    var apply = el("button", { type: "button", text: "Apply the change" });
    var cancel = el("button", { type: "button", text: "Cancel" });
    var message = el("p", { className: "action-message", role: "status" });
    var result = el("div");
    var original = null, busy = false;
    var panel = el("div", { id: panelId, className: "confirm-panel", hidden: true }, [
      el("label", { "for": areaId, text: "Configuration of " + ctx.name + " (JSON)" }),
      el("p", { id: helpId, className: "muted", text: "Change any field; only the fields you change are sent. Remove a field to put its default back. The task keeps its name, run history and state. Plan first to see what the change would do; nothing changes until you apply it." }),
      area,
      el("div", { className: "action" }, [plan, apply, cancel]),
      message, result,
    ]);

    function say(text, bad) {
      message.className = "action-message" + (bad ? " error" : "");
      message.setAttribute("role", bad ? "alert" : "status");
      message.textContent = text;
      area.setAttribute("aria-invalid", bad ? "true" : "false");
    }
    function setBusy(value) {
      busy = value;
      [plan, apply].forEach(function (button) { button.setAttribute("aria-disabled", value ? "true" : "false"); });
    }
    function load() {
      say("Reading the configuration…");
      ui.clear(result);
      return ui.api.get(path).then(function (answer) {
        if (answer.status !== 200 || !answer.body || !answer.body.task) { say("Cannot read the task: " + ui.api.errorOf(answer), true); return; }
        original = answer.body.task;
        area.value = JSON.stringify(original, null, 2);
        say("");
      });
    }
    function show(opened) {
      panel.hidden = !opened;
      open.setAttribute("aria-expanded", opened ? "true" : "false");
      if (opened) load().then(function () { area.focus(); }); else open.focus();
    }
    // The fields to send, or null (and a message) when the text is not a JSON object or changes nothing.
    function patchOf() {
      var edited;
      try { edited = JSON.parse(area.value); } catch (error) { say("Cannot read the configuration: it is not JSON (" + error.message + "). Nothing was sent.", true); return null; }
      if (!edited || typeof edited !== "object" || Array.isArray(edited)) { say("Cannot read the configuration: it must be a JSON object of task fields. Nothing was sent.", true); return null; }
      var patch = changedFields(original || {}, edited);
      if (!Object.keys(patch).length) { say("Nothing changed: edit a field first."); return null; }
      var masked = Object.keys(patch).filter(function (key) { return JSON.stringify(patch[key]).indexOf(MASKED) >= 0; });
      if (masked.length) { say("Cannot send " + masked.join(", ") + ": it holds " + MASKED + ", a secret the daemon does not show, which would replace the secret. Change that field where the secret is known (its config file, or the API with the real value). Nothing was sent.", true); return null; }
      return patch;
    }
    function send(run) {
      if (busy || !original) return;
      var patch = patchOf();
      if (!patch) return;
      setBusy(true);
      ui.clear(result);
      say(run === "inspect" ? "Planning the change…" : "Applying the change…");
      ui.api.send("PATCH", path + "?run=" + run, patch).then(function (answer) {
        setBusy(false);
        if (answer.status !== 200) {
          say((run === "inspect" ? "Cannot plan the change: " : "Cannot apply the change: ") + ui.api.errorOf(answer), true);
          return;
        }
        if (run === "inspect") { showPlan(answer); return; }
        say("Change applied: the task ran with it; it is the newest run below.");
        if (answer.body && answer.body.task) { original = answer.body.task; area.value = JSON.stringify(original, null, 2); }
        ctx.reload(true);
      }, function (error) { setBusy(false); say("Cannot reach the daemon: " + error.message, true); });
    }
    function showPlan(answer) {
      var inspect = (answer.body && answer.body.inspect) || {};
      var located = answer.headers && answer.headers.get("content-location");
      say(inspect.changes_present ? "The plan of the change is below. Nothing was changed yet." : "The change plans no resource change. Nothing was changed yet.");
      result.appendChild(el("pre", { className: "log change-plan", tabindex: "0", "aria-label": "Plan of the change", text: inspect.plan || "" }));
      if (located) result.appendChild(el("p", null, [ui.link("/ui" + located.replace(/^\\/v1/, ""), "Open this inspection as a run page")]));
    }

    open.addEventListener("click", function () { show(panel.hidden); });
    cancel.addEventListener("click", function () { show(false); });
    plan.addEventListener("click", function () { send("inspect"); });
    apply.addEventListener("click", function () { send("now"); });
    return el("div", null, [el("div", { className: "action" }, [open, el("span", { className: "muted", text: "Change any of its fields while it runs (PATCH), plan first." })]), panel]);
  }

  ui.taskEdit = { build: build, changedFields: changedFields };
})();
`;
