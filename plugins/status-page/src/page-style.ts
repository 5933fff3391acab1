/**
 * @module The pages' stylesheet: light and dark schemes from prefers-color-scheme, one column on a
 * phone (tables become stacked rows) and a side column from 60em on the overview, a focus ring on
 * every control, status shown in words as well as colour, logs in scrollable boxes.
 */

export const PAGE_STYLE = `:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --fg: #1b1f24; --muted: #59636e; --card: #ffffff; --border: #d0d7de;
  --ok: #1a7f37; --ok-bg: #dafbe1; --bad: #b3261e; --bad-bg: #ffebe9; --warn: #8a5a00; --warn-bg: #fff4d6;
  --info: #1f5fbf; --info-bg: #ddf4ff; --focus: #0b57d0; --code-bg: #eef1f4;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9aa5b1; --card: #161b22; --border: #30363d;
    --ok: #56d364; --ok-bg: #12361d; --bad: #ff7b72; --bad-bg: #3d1214; --warn: #e3b341; --warn-bg: #3a2a05;
    --info: #79c0ff; --info-bg: #0c2d4f; --focus: #8ab4f8; --code-bg: #21262d;
  }
}
* { box-sizing: border-box; }
/* The hidden attribute wins over every display rule below. */
[hidden] { display: none !important; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--info); }
h1 { font-size: 1.35rem; margin: 0.9rem 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.1rem 0 0.5rem; }
code, .mono, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
code { background: var(--code-bg); padding: 0 0.25em; border-radius: 3px; overflow-wrap: anywhere; }
.muted { color: var(--muted); margin: 0.25rem 0; }
.block { display: block; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--card); color: var(--fg); padding: 0.5rem 0.75rem; border: 2px solid var(--focus); z-index: 10; }
/* Only the keyboard reaches it, also when focus comes back into the page from the browser. */
.skip-link:focus { top: 0.5rem; outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.banner { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; padding: 0.6rem 1rem; background: var(--card); border-bottom: 1px solid var(--border); }
.banner p { margin: 0; }
.site { font-weight: 600; font-size: 1.1rem; }
.site a { color: var(--fg); text-decoration: none; }
.banner-actions { display: flex; gap: 0.75rem; align-items: center; }
button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 0.35rem 0.8rem; cursor: pointer; min-height: 2.25rem; }
button:hover { border-color: var(--focus); }
button[aria-disabled="true"] { opacity: 0.6; cursor: not-allowed; }
button.linkish { min-height: 0; padding: 0.1rem 0.3rem; border-color: transparent; background: transparent; }
button.linkish[aria-pressed="true"] { border-color: var(--focus); }
input, select { font: inherit; color: var(--fg); background: var(--card); border: 1px solid var(--muted); border-radius: 6px; padding: 0.3rem 0.5rem; min-height: 2.25rem; }
.live-state { margin: 0; font-size: 0.9rem; }
.live-state::before { content: ""; display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 0.35em; background: var(--warn); }
.live-state[data-state="live"]::before { background: var(--ok); }
.live-state[data-state="down"]::before { background: var(--bad); }
.token-form { max-width: 40rem; margin: 1rem auto 0; padding: 0.75rem 1rem; background: var(--card); border: 2px solid var(--focus); border-radius: 8px; display: grid; gap: 0.4rem; }
.token-form h2 { margin: 0; }
.layout { display: grid; grid-template-columns: 1fr; gap: 0 1.5rem; padding: 0 1rem 1rem; max-width: 90rem; margin: 0 auto; }
@media (min-width: 60em) { .layout.with-side { grid-template-columns: minmax(0, 1fr) 20rem; } }
main { min-width: 0; }
main:focus { outline: none; }
.summary { list-style: none; display: flex; flex-wrap: wrap; gap: 0.4rem 0.9rem; padding: 0; margin: 0.25rem 0; align-items: center; }
.filters { display: flex; flex-wrap: wrap; gap: 0.4rem 0.6rem; align-items: center; margin: 0.25rem 0 0.5rem; }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--border); border-radius: 8px; font-size: 0.92rem; }
th, td { text-align: left; vertical-align: top; padding: 0.45rem 0.6rem; border-top: 1px solid var(--border); overflow-wrap: anywhere; }
thead th { border-top: 0; color: var(--muted); font-weight: 600; overflow-wrap: normal; }
tbody th { font-weight: 600; }
tbody th, td[data-label="Kind"], td[data-label="Duration"], td[data-label="Resources"], td[data-label="Status"] { overflow-wrap: break-word; }
tbody th .muted { font-weight: normal; }
tr[data-status="errored"] th, tr[data-status="critical"] th, tr[data-outcome="failed"] th { box-shadow: inset 4px 0 var(--bad); }
tr[data-status="successful"] th { box-shadow: inset 4px 0 var(--ok); }
.badges { display: inline-flex; flex-wrap: wrap; gap: 0.3rem; margin: 0; }
.badge { display: inline-block; font-size: 0.8rem; padding: 0.05rem 0.5rem; border-radius: 999px; border: 1px solid var(--border); white-space: nowrap; }
a.badge { text-decoration: underline; }
.badge.ok { color: var(--ok); background: var(--ok-bg); border-color: transparent; }
.badge.bad { color: var(--bad); background: var(--bad-bg); border-color: transparent; }
.badge.warn { color: var(--warn); background: var(--warn-bg); border-color: transparent; }
.badge.info { color: var(--info); background: var(--info-bg); border-color: transparent; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.15rem 0.75rem; margin: 0.5rem 0; font-size: 0.95rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.error { color: var(--bad); background: var(--bad-bg); border-radius: 6px; padding: 0.4rem 0.6rem; margin: 0.5rem 0; overflow-wrap: anywhere; white-space: pre-wrap; font-size: 0.9rem; }
.error-line { display: block; color: var(--bad); font-size: 0.88rem; overflow-wrap: anywhere; }
.crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: 0.3rem; padding: 0; margin: 0.75rem 0 0; font-size: 0.92rem; }
.crumbs li + li::before { content: "›"; margin-right: 0.3rem; color: var(--muted); }
.pager { display: flex; gap: 1rem; margin: 0.6rem 0; }
.actions { display: grid; gap: 0.4rem; }
.action { display: flex; flex-wrap: wrap; gap: 0.3rem 0.75rem; align-items: center; }
.action-message { min-height: 1.4em; margin: 0.2rem 0; }
.confirm-panel { display: grid; gap: 0.4rem; margin: 0.5rem 0; padding: 0.6rem 0.8rem; background: var(--card); border: 1px solid var(--border); border-radius: 8px; }
.confirm-panel label { font-weight: 600; }
input[type="checkbox"] { min-height: 0; width: 1.1rem; height: 1.1rem; }
textarea.task-json { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem; color: var(--fg); background: var(--card); border: 1px solid var(--muted); border-radius: 6px; padding: 0.4rem 0.5rem; width: 100%; resize: vertical; }
textarea.task-json[aria-invalid="true"] { border-color: var(--bad); }
button.danger { color: var(--bad); border-color: var(--bad); }
.gone { font-size: 1.05rem; }
.live-note { background: var(--info-bg); color: var(--info); border-radius: 6px; padding: 0.4rem 0.6rem; }
pre.log, pre.value { background: var(--code-bg); color: var(--fg); border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem 0.7rem; margin: 0.3rem 0; max-height: 28rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.error.log { color: var(--bad); background: var(--bad-bg); }
ul.changes { margin: 0.2rem 0 0; padding-left: 1.1rem; }
.members { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.4rem; }
.members li, .panel { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 0.5rem 0.75rem; overflow-wrap: anywhere; }
.footer { padding: 0.5rem 1rem 1.5rem; color: var(--muted); font-size: 0.9rem; text-align: center; }
@media (max-width: 40em) {
  /* A phone: each table row becomes a stacked block; headers are read from the row's own cells. */
  table, thead, tbody, tr, th, td { display: block; width: 100%; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { border-top: 1px solid var(--border); padding: 0.3rem 0; }
  th, td { border-top: 0; padding: 0.15rem 0.6rem; }
  td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.3rem; }
}
`;
