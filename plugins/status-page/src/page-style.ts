/**
 * @module The status page's stylesheet: light and dark schemes from prefers-color-scheme, one
 * column on a phone and two from 60em, a focus ring on every control, status shown in words as
 * well as colour.
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
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--info); }
h1 { font-size: 1.35rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 1rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
code { background: var(--code-bg); padding: 0 0.25em; border-radius: 3px; overflow-wrap: anywhere; }
.muted { color: var(--muted); margin: 0.25rem 0; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--card); color: var(--fg); padding: 0.5rem 0.75rem; border: 2px solid var(--focus); z-index: 10; }
/* Only the keyboard reaches it, also when focus comes back into the page from the browser. */
.skip-link:focus { top: 0.5rem; outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.banner { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; padding: 0.75rem 1rem; background: var(--card); border-bottom: 1px solid var(--border); }
.banner-actions { display: flex; gap: 0.75rem; align-items: center; }
button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 0.35rem 0.8rem; cursor: pointer; min-height: 2.25rem; }
button:hover { border-color: var(--focus); }
.live-state { margin: 0; font-size: 0.9rem; }
.live-state::before { content: ""; display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 0.35em; background: var(--warn); }
.live-state[data-state="live"]::before { background: var(--ok); }
.live-state[data-state="down"]::before { background: var(--bad); }
.layout { display: grid; grid-template-columns: 1fr; gap: 0 1.5rem; padding: 0 1rem 1rem; max-width: 90rem; margin: 0 auto; }
@media (min-width: 60em) { .layout { grid-template-columns: minmax(0, 1fr) 20rem; } }
main:focus { outline: none; }
.tasks { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 0.75rem 0.9rem; min-width: 0; }
.card[data-status="errored"], .card[data-status="critical"] { border-left: 4px solid var(--bad); }
.card[data-status="successful"] { border-left: 4px solid var(--ok); }
.card-head { display: flex; flex-wrap: wrap; gap: 0.35rem 0.5rem; align-items: baseline; justify-content: space-between; }
.badges { display: flex; flex-wrap: wrap; gap: 0.3rem; }
.badge { display: inline-block; font-size: 0.8rem; padding: 0.05rem 0.5rem; border-radius: 999px; border: 1px solid var(--border); white-space: nowrap; }
.badge.ok { color: var(--ok); background: var(--ok-bg); border-color: transparent; }
.badge.bad { color: var(--bad); background: var(--bad-bg); border-color: transparent; }
.badge.warn { color: var(--warn); background: var(--warn-bg); border-color: transparent; }
.badge.info { color: var(--info); background: var(--info-bg); border-color: transparent; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.15rem 0.75rem; margin: 0.5rem 0; font-size: 0.92rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.error { color: var(--bad); background: var(--bad-bg); border-radius: 6px; padding: 0.4rem 0.6rem; margin: 0.5rem 0; overflow-wrap: anywhere; white-space: pre-wrap; font-size: 0.9rem; }
details { margin-top: 0.5rem; }
summary { cursor: pointer; padding: 0.2rem 0; }
ol.runs { list-style: none; padding: 0; margin: 0.4rem 0 0; display: grid; gap: 0.4rem; }
ol.runs > li { border-top: 1px solid var(--border); padding-top: 0.4rem; font-size: 0.9rem; }
ul.changes { margin: 0.2rem 0 0; padding-left: 1.1rem; }
.members { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.4rem; }
.members li, .panel { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 0.5rem 0.75rem; overflow-wrap: anywhere; }
.footer { padding: 0.5rem 1rem 1.5rem; color: var(--muted); font-size: 0.9rem; text-align: center; }
`;
