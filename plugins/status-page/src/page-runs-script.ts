/**
 * @module How the pages name a run (`/ui/runs.js`): its outcome and kind, why it ran, why it was
 * skipped, the change in its inputs (with how many entries were left out), its resource counts, and
 * the module's outputs. Drift checks (outcome `checked`: drift or none), destroys and cancelled
 * runs (a hook vetoed) have words of their own; kinds and outcomes it does not know are shown by
 * name, so a new kind of run needs no change here.
 */

export const PAGE_RUNS_SCRIPT = `"use strict";
// Words for runs (window.ctsUi.runs).
(function () {
  var ui = window.ctsUi;
  var el = ui.el, badge = ui.badge;

  var OUTCOME_KIND = { applied: "ok", planned: "info", running: "info", failed: "bad", skipped: "warn", cancelled: "warn" };
  var SKIP_TEXT = {
    unchanged_inputs: "skipped: the inputs equal the last successful run's",
    input_missing: "skipped: an input has not delivered its first data yet",
    disabled: "skipped: the task is disabled",
  };
  var KIND_TEXT = { apply: "apply", inspect: "inspection (plan only)", "drift-check": "drift check (plan only)", destroy: "destroy" };

  // A drift check that planned says what it found: drift is a finding to act on, none is good news.
  function outcomeBadge(run) {
    if (run.outcome === "checked" && run.drift) return badge(run.drift.detected ? "checked: drift" : "checked: no drift", run.drift.detected ? "bad" : "ok");
    return badge(run.outcome, OUTCOME_KIND[run.outcome] || "");
  }
  // One line on what a drift check found, for a table cell ("" for other runs).
  function driftText(run) {
    if (!run.drift) return "";
    if (!run.drift.detected) return "no drift";
    return ui.count(run.drift.resources.length, "resource differs", "resources differ") + (run.drift.corrected ? "; auto_correct queued an apply" : "");
  }
  function kindText(run) { var kind = run.kind || "apply"; return KIND_TEXT[kind] || kind; }
  function triggerText(trigger) { return trigger ? trigger.kind + (trigger.detail ? ": " + trigger.detail : "") : ""; }
  function skipText(run) { return run.outcome === "skipped" ? (SKIP_TEXT[run.skip_reason] || "skipped" + (run.skip_reason ? ": " + run.skip_reason : "")) : ""; }
  function planText(plan) { return plan ? "+" + plan.add + " ~" + plan.change + " −" + plan.destroy : ""; }

  // Every listed entry of the change, one line each; the last line says how many were left out.
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
    if (change.omitted) lines.push("… and " + ui.count(change.omitted, "more entry", "more entries") + " not listed (a list keeps 100)");
    return lines;
  }

  // What a run without a listed change says instead (never "no change" for a skip: skips say why).
  function noChangeText(run) {
    if (run.outcome === "skipped") return skipText(run);
    if (run.kind === "inspect") return "planned with the current inputs";
    return run.trigger && (run.trigger.kind === "api" || run.trigger.kind === "schedule") ? "no input changed (run on request or on schedule)" : "no input changed";
  }

  // A short count of the change, for a table cell: "2 added, 1 removed (and 104 more)".
  function changeSummary(change) {
    if (!change) return "";
    var counts = { added: 0, removed: 0, changed: 0 };
    ["services", "consul_kv", "catalog_services"].forEach(function (name) {
      var part = change[name];
      if (!part) return;
      Object.keys(counts).forEach(function (key) { counts[key] += (part[key] || []).length; });
    });
    var words = Object.keys(counts).filter(function (key) { return counts[key] > 0; }).map(function (key) { return counts[key] + " " + key; });
    if (change.omitted) words.push("and " + change.omitted + " more");
    return words.length ? (change.first ? "first run: " : "") + words.join(", ") : change.first ? "first run" : "none";
  }

  // A list of the change's lines, or the reason there is none.
  function changeList(run) {
    var lines = changeLines(run.change);
    if (!lines.length) return el("p", { className: "muted", text: noChangeText(run) });
    return el("ul", { className: "changes", "aria-label": "Input changes" }, lines.map(function (line) { return el("li", { text: line }); }));
  }

  // The module's outputs as a table: sensitive ones are named without value.
  function outputsTable(outputs) {
    return el("table", { className: "kv-table" }, [
      el("caption", { className: "visually-hidden", text: "Module outputs" }),
      el("thead", null, [el("tr", null, [el("th", { scope: "col", text: "Output" }), el("th", { scope: "col", text: "Value" })])]),
      el("tbody", null, Object.keys(outputs).sort().map(function (name) {
        var output = outputs[name], value;
        if (output.sensitive) value = el("span", { className: "muted", text: "sensitive: not shown" });
        else if (output.value_omitted_bytes) value = el("span", { className: "muted", text: "too large to keep (" + ui.bytes(output.value_omitted_bytes) + ")" });
        else {
          var json = JSON.stringify(output.value, null, 2);
          value = json && json.indexOf("\\n") >= 0 ? el("pre", { className: "value", tabindex: "0", "aria-label": "Value of " + name, text: json }) : el("code", { text: String(json) });
        }
        return el("tr", null, [el("th", { scope: "row" }, [el("code", { text: name })]), el("td", { "data-label": "Value" }, [value])]);
      })),
    ]);
  }
  ui.runOutputs = outputsTable;

  ui.runs = {
    outcomeBadge: outcomeBadge, kindText: kindText, driftText: driftText, triggerText: triggerText, skipText: skipText, planText: planText,
    changeLines: changeLines, changeSummary: changeSummary, changeList: changeList, noChangeText: noChangeText,
  };
})();
`;
