/**
 * @module How the status page shows one run (`/ui/runs.js`): a run record from
 * `GET /v1/tasks/:name/runs` (outcome, trigger, duration, plan, the change in its inputs, error),
 * or one of CTS's task events when the daemon keeps no run history.
 */

export const PAGE_RUNS_SCRIPT = `"use strict";
// How one run is shown: a run record (outcome, trigger, plan, input changes, error) or, from a
// daemon without run history, one of CTS's task events (window.ctsUi.runItem / eventItem).
(function () {
  var ui = window.ctsUi;
  var el = ui.el, badge = ui.badge, timeEl = ui.timeEl, duration = ui.duration;

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

  ui.runItem = runItem;
  ui.eventItem = eventItem;
})();
`;
