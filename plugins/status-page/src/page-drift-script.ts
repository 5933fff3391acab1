/**
 * @module How the pages show drift detection (`/ui/drift.js`): the overview's badge on a drifted
 * task, and the task page's drift section: the state from the overview (`drift`: none, drifted,
 * not checked yet), the newest check (when, its run page, the resources that differ, whether
 * `auto_correct` queued an apply: read from the check's run record) and the next check. A task
 * drift detection does not watch says so and how to turn it on.
 */

export const PAGE_DRIFT_SCRIPT = `"use strict";
// Drift detection on the pages (window.ctsUi.drift).
(function () {
  var ui = window.ctsUi;
  var el = ui.el, badge = ui.badge;

  // The overview's badge: only a drifted task has one (linked to the check that found it).
  function overviewBadge(task) {
    var drift = task.drift;
    if (!drift || drift.status !== "drifted") return null;
    var label = "drifted: " + ui.count(drift.resources.length, "resource differs", "resources differ") + " from what " + task.name + " applied";
    return drift.run_id ? ui.link(ui.runHref(task.name, drift.run_id), "drifted", { className: "badge bad", "aria-label": label }) : badge("drifted", "bad");
  }

  function resourceTable(resources, caption) {
    return el("table", { className: "kv-table drift-resources" }, [
      el("caption", { className: "visually-hidden", text: caption }),
      el("thead", null, [el("tr", null, [el("th", { scope: "col", text: "Address" }), el("th", { scope: "col", text: "Action" })])]),
      el("tbody", null, resources.map(function (r) {
        return el("tr", null, [el("th", { scope: "row" }, [el("code", { text: r.address })]), el("td", { "data-label": "Action", text: r.action })]);
      })),
    ]);
  }

  // The state in words, with its badge.
  function stateLine(drift) {
    if (drift.status === "drifted") return el("p", { className: "badges" }, [badge("drifted", "bad"), " " + ui.count(drift.resources.length, "resource differs", "resources differ") + " from what the task applied."]);
    if (drift.status === "none") return el("p", { className: "badges" }, [badge("no drift", "ok"), " The resources match what the task applied."]);
    return el("p", { className: "badges" }, [badge("not checked yet", "warn"), " No drift check has ended yet."]);
  }

  // The task page's drift section: drift is the overview's, check the newest check's run record (or null).
  function render(box, taskName, drift, check) {
    ui.clear(box);
    if (!drift) {
      box.appendChild(el("p", { className: "muted", text: "Drift detection is off for this task: add drift_detection to its configuration (Edit, below, or its config file) to check it on an interval." }));
      return;
    }
    box.appendChild(stateLine(drift));
    var dl = el("dl", { className: "facts" });
    if (drift.checked_at) {
      ui.fact(dl, "Last check", el("span", null, [drift.run_id ? ui.link(ui.runHref(taskName, drift.run_id), "drift check") : "drift check", " · ", ui.timeEl(drift.checked_at)]));
    }
    if (check && check.drift && check.drift.detected) {
      ui.fact(dl, "Correction", check.drift.corrected ? "auto_correct queued an apply to bring them back (a run of its own, trigger drift)." : "Report only: nothing was changed. Run the task now to apply its inputs again, or set auto_correct.");
    }
    if (drift.error) ui.fact(dl, "Check failed", el("span", { className: "error-line", text: ui.firstLine(drift.error, 300) }));
    ui.fact(dl, "Next check", drift.next_check ? ui.timeEl(drift.next_check) : "none scheduled");
    box.appendChild(dl);
    if (drift.status === "drifted" && drift.resources.length) box.appendChild(resourceTable(drift.resources, "Resources that differ"));
  }

  ui.drift = { overviewBadge: overviewBadge, render: render, resourceTable: resourceTable };
})();
`;
