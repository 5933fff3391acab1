/**
 * @module The pages' helpers (`/ui/dom.js`, loaded first): building elements with textContent only
 * (no daemon data is ever parsed as HTML), element ids unique for the page's life, times, sizes,
 * badges, the live region and page links. Exposed as `window.ctsUi` to the other scripts.
 */

export const PAGE_DOM_SCRIPT = `"use strict";
// DOM helpers shared by the page's scripts (window.ctsUi).
(function () {
  var nextId = 0;
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var key in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, key) || attrs[key] === undefined || attrs[key] === null || attrs[key] === false) continue;
        if (key === "text") node.textContent = attrs[key];
        else if (key === "className") node.className = attrs[key];
        else node.setAttribute(key, attrs[key] === true ? "" : attrs[key]);
      }
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false || child === "") return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  // Never reused while the page lives: a removed element's id never names a new one.
  function uid(prefix) { nextId += 1; return prefix + "-" + nextId; }
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
    if (ms < 1000) return ms + " ms";
    if (ms < 60000) return (ms / 1000).toFixed(1) + " s";
    return Math.floor(ms / 60000) + " min " + Math.round((ms % 60000) / 1000) + " s";
  }
  function bytes(n) {
    if (n < 1024) return n + " bytes";
    if (n < 1048576) return (n / 1024).toFixed(1) + " KiB";
    return (n / 1048576).toFixed(1) + " MiB";
  }
  function count(n, one, many) { return n.toLocaleString() + " " + (n === 1 ? one : many); }
  function badge(text, kind) { return el("span", { className: "badge " + (kind || ""), text: text }); }
  function statusKind(status) {
    return status === "successful" ? "ok" : status === "errored" || status === "critical" ? "bad" : "warn";
  }
  function taskHref(name) { return "/ui/tasks/" + encodeURIComponent(name); }
  function runHref(task, id) { return taskHref(task) + "/runs/" + encodeURIComponent(id); }
  function link(href, text, attrs) {
    var a = el("a", attrs || null, [text]);
    a.setAttribute("href", href);
    return a;
  }
  function firstLine(text, max) {
    var line = String(text || "").split("\\n").filter(function (part) { return part.trim() !== ""; })[0] || "";
    max = max || 160;
    return line.length > max ? line.slice(0, max - 1) + "…" : line;
  }
  function fact(dl, term, value) {
    dl.appendChild(el("dt", { text: term }));
    dl.appendChild(el("dd", null, [typeof value === "string" ? document.createTextNode(value) : value]));
  }
  function section(title, children, attrs) {
    var id = uid("section");
    return el("section", Object.assign({ "aria-labelledby": id }, attrs || {}), [el("h2", { id: id, text: title })].concat(children));
  }

  window.ctsUi = {
    $: $, el: el, clear: clear, uid: uid, announce: announce, timeEl: timeEl, ago: ago, duration: duration, bytes: bytes, count: count,
    badge: badge, statusKind: statusKind, taskHref: taskHref, runHref: runHref, link: link, firstLine: firstLine, fact: fact,
    section: section,
  };
})();
`;
