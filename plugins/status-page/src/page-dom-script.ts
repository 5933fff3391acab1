/**
 * @module The status page's helpers (`/ui/dom.js`, loaded first): building elements with
 * textContent only (no daemon data is ever parsed as HTML), times, badges, the live region and
 * JSON reads. Exposed as `window.ctsUi` to the page's other scripts.
 */

export const PAGE_DOM_SCRIPT = `"use strict";
// DOM and fetch helpers shared by the page's scripts (window.ctsUi).
(function () {
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
  function ago(iso) {
    var seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    if (isNaN(seconds)) return "at " + iso;
    return seconds < 120 ? seconds + " s ago" : Math.round(seconds / 60) + " min ago";
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

  window.ctsUi = {
    $: $, el: el, clear: clear, announce: announce, timeEl: timeEl, duration: duration, badge: badge,
    statusKind: statusKind, getJson: getJson,
  };
})();
`;
