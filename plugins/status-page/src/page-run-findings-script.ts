/**
 * @module What a run page shows beyond a plan and an apply (`/ui/run-findings.js`): a drift
 * check's finding (drift or none, the resources that differ, whether `auto_correct` queued an
 * apply), the resources a failed destroy left (`resources_left`), and the run hooks' reports
 * (issue 30: each hook's outcome, exit code, time, error and output), saying when a hook after the
 * apply failed or a hook before it cancelled the run.
 */

export const PAGE_RUN_FINDINGS_SCRIPT = `"use strict";
// Sections of a run page for drift checks, destroys and hooks (window.ctsUi.runFindings).
(function () {
  var ui = window.ctsUi;
  var el = ui.el;

  function driftSection(run) {
    var drift = run.drift;
    var lines = [el("p", { className: "badges" }, [ui.runs.outcomeBadge(run), " " + (drift.detected
      ? ui.count(drift.resources.length, "resource differs", "resources differ") + " from what the task last applied."
      : "The resources match what the task last applied.")])];
    if (drift.detected) {
      lines.push(el("p", { text: drift.corrected ? "auto_correct queued an apply to bring them back (a run of its own, trigger drift)." : "Report only: nothing was changed." }));
      if (drift.resources.length) lines.push(ui.drift.resourceTable(drift.resources, "Resources that differ"));
    }
    return ui.section("Drift", lines);
  }

  function leftSection(run) {
    return ui.section("Resources left", [
      el("p", { text: "The destroy failed, so the task was kept; these resources are still managed by it:" }),
      el("ul", { className: "changes", "aria-label": "Resources left" }, run.resources_left.map(function (address) { return el("li", null, [el("code", { text: address })]); })),
    ]);
  }

  var HOOK_KIND = { ok: "ok", failed: "bad", timed_out: "bad" };
  function hookRow(hook) {
    var output = hook.output ? el("pre", { className: "log", tabindex: "0", "aria-label": "Output of " + hook.name, text: (hook.output_omitted ? "… " + ui.count(hook.output_omitted, "character", "characters") + " left out …\\n" : "") + hook.output }) : null;
    return el("tr", { "data-outcome": hook.outcome }, [
      el("th", { scope: "row" }, [el("code", { text: hook.name })]),
      el("td", { "data-label": "Outcome" }, [ui.badge(hook.outcome, HOOK_KIND[hook.outcome] || ""), hook.error ? el("span", { className: "error-line", text: hook.error }) : null]),
      el("td", { "data-label": "Exit code", text: typeof hook.exit_code === "number" ? String(hook.exit_code) : "—" }),
      el("td", { "data-label": "Duration", text: ui.duration(hook.duration_ms) }),
      el("td", { "data-label": "Output" }, [output || el("span", { className: "muted", text: "none" })]),
    ]);
  }
  function hooksSection(run) {
    var note = run.outcome === "cancelled" ? "A hook before the apply said no: the run was cancelled and nothing was applied."
      : run.hooks_failed ? "A hook after the apply failed; the run's outcome stands." : "";
    return ui.section("Hooks", [note ? el("p", { className: "error", text: note }) : null, el("table", { className: "kv-table hooks" }, [
      el("caption", { className: "visually-hidden", text: "Run hooks, in the order they ran" }),
      el("thead", null, [el("tr", null, ["Hook", "Outcome", "Exit code", "Duration", "Output"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
      el("tbody", null, run.hooks.map(hookRow)),
    ])]);
  }

  // The sections this run has, in page order.
  function sections(run) {
    var out = [];
    if (run.drift) out.push(driftSection(run));
    if (run.resources_left && run.resources_left.length) out.push(leftSection(run));
    if (run.hooks && run.hooks.length) out.push(hooksSection(run));
    return out;
  }

  ui.runFindings = { sections: sections };
})();
`;
