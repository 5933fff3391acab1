/**
 * @module Deleting a task from its page (`/ui/task-delete.js`): "Delete…" opens a confirmation
 * (nothing is sent before it); "Destroy its resources first" shows the destroy plan
 * (`DELETE ?destroy=true&run=inspect`, which changes nothing) and asks again before
 * `DELETE ?destroy=true`; without it the task is deleted as CTS deletes (its resources stay). The
 * API's error is shown in its own words, and the task stays. Same API, origin and token as any client.
 */

export const PAGE_TASK_DELETE_SCRIPT = `"use strict";
// The task page's delete panel (window.ctsUi.taskDelete).
(function () {
  var ui = window.ctsUi;
  var el = ui.el;

  // ctx: { name, gone(destroyed) }; returns the section's content.
  function build(ctx) {
    var path = "/v1/tasks/" + encodeURIComponent(ctx.name);
    var panelId = ui.uid("delete-panel"), checkId = ui.uid("destroy-first"), helpId = ui.uid("destroy-help");
    var open = el("button", { type: "button", "aria-expanded": "false", "aria-controls": panelId, text: "Delete…" });
    var check = el("input", { type: "checkbox", id: checkId, "aria-describedby": helpId });
    var confirm = el("button", { type: "button", className: "danger" });
    var cancel = el("button", { type: "button", text: "Cancel" });
    var message = el("p", { className: "action-message", role: "status" });
    var planBox = el("div");
    var busy = false;
    var panel = el("div", { id: panelId, className: "confirm-panel", hidden: true }, [
      el("p", null, [el("strong", { text: "Delete task " + ctx.name + "?" }), " It stops running and is removed from the daemon; its run history goes with it."]),
      el("div", { className: "action" }, [check, el("label", { "for": checkId, text: "Destroy its resources first" })]),
      el("p", { id: helpId, className: "muted", text: "Runs terraform destroy with the task's last inputs, and deletes the task only if that worked. You see the plan of the destroy before anything happens. Without it, the resources stay, as CTS leaves them." }),
      planBox,
      el("div", { className: "action" }, [confirm, cancel]),
      message,
    ]);
    // A plan shown is for the choice made when it was asked: changing the choice asks again.
    var planned = false;

    function label() {
      confirm.textContent = !check.checked ? "Delete the task" : planned ? "Destroy the resources and delete the task" : "Show the destroy plan";
    }
    function reset() {
      planned = false;
      ui.clear(planBox);
      message.className = "action-message";
      message.setAttribute("role", "status");
      message.textContent = "";
      label();
    }
    function show(opened) {
      panel.hidden = !opened;
      open.setAttribute("aria-expanded", opened ? "true" : "false");
      if (opened) { reset(); check.checked = false; label(); check.focus(); } else open.focus();
    }
    function failed(what, answer) {
      message.className = "action-message error";
      message.setAttribute("role", "alert");
      message.textContent = what + ": " + (answer.status ? ui.api.errorOf(answer) : answer.message);
    }
    function send(method, query) {
      busy = true;
      confirm.setAttribute("aria-disabled", "true");
      return ui.api.send(method, path + query).then(function (answer) { busy = false; confirm.setAttribute("aria-disabled", "false"); return answer; },
        function (error) { busy = false; confirm.setAttribute("aria-disabled", "false"); return error; });
    }

    function showPlan() {
      message.className = "action-message";
      message.textContent = "Planning the destroy…";
      send("DELETE", "?destroy=true&run=inspect").then(function (answer) {
        if (answer.status !== 200 || !answer.body || !answer.body.inspect) { failed("Cannot plan the destroy", answer); return; }
        var inspect = answer.body.inspect;
        planned = true;
        ui.clear(planBox);
        planBox.appendChild(el("p", { text: inspect.changes_present ? "The destroy plan: read it, then confirm below." : "The destroy plans no change: the task manages no resources now." }));
        planBox.appendChild(el("pre", { className: "log destroy-plan", tabindex: "0", "aria-label": "Destroy plan", text: inspect.plan || "" }));
        message.textContent = "Plan ready. Nothing was changed.";
        label();
        confirm.focus();
      });
    }
    function remove(destroy) {
      message.className = "action-message";
      message.textContent = destroy ? "Destroying the resources, then deleting the task…" : "Deleting…";
      send("DELETE", destroy ? "?destroy=true" : "").then(function (answer) {
        if (answer.status === 202 || answer.status === 200) { ctx.gone(destroy); return; }
        failed(destroy ? "Cannot destroy and delete" : "Cannot delete", answer);
        // A failed destroy keeps the task: plan again before another try.
        planned = false;
        label();
      });
    }

    open.addEventListener("click", function () { show(panel.hidden); });
    cancel.addEventListener("click", function () { show(false); });
    check.addEventListener("change", reset);
    confirm.addEventListener("click", function () {
      if (busy) return;
      if (!check.checked) remove(false);
      else if (!planned) showPlan();
      else remove(true);
    });
    label();
    return el("div", null, [el("div", { className: "action" }, [open, el("span", { className: "muted", text: "Asks before it deletes; can destroy the task's resources first." })]), panel]);
  }

  ui.taskDelete = { build: build };
})();
`;
