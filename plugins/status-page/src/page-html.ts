/**
 * @module The pages' HTML shell, the same for the overview, a task and a run (the script renders
 * what the path names): landmarks (banner, main, contentinfo; the overview adds a complementary
 * region), one h1, a skip link, a polite live region that announces updates, the API token form
 * (shown only when the API asks for one), and a `<noscript>` message. Script and style are files
 * of the daemon because the Content-Security-Policy forbids inline ones; paths are absolute, so
 * every page path loads the same files.
 */

const SCRIPTS = ["dom", "api", "stream", "runs", "drift", "run-findings", "overview", "task-edit", "task-delete", "task", "run", "app"];

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>cts-runtime status</title>
<link rel="icon" href="/ui/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/ui/app.css">
${SCRIPTS.map((name) => `<script src="/ui/${name}.js" defer></script>`).join("\n")}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="banner">
  <div class="banner-title">
    <p class="site"><a href="/ui/">cts-runtime</a></p>
    <p id="instance" class="muted">Loading…</p>
  </div>
  <div class="banner-actions">
    <p id="live-state" class="live-state" data-state="connecting">Connecting…</p>
    <button id="refresh" type="button">Refresh</button>
  </div>
</header>
<form id="token-form" class="token-form" hidden novalidate>
  <h2 id="token-heading">API token needed</h2>
  <p id="token-help" class="muted">This daemon's API asks for a token. It is kept for this browser tab only.</p>
  <p id="token-error" class="error" role="alert" hidden></p>
  <label for="token-input">API token</label>
  <input id="token-input" name="token" type="password" autocomplete="off" spellcheck="false" aria-describedby="token-help" required>
  <button type="submit">Use token</button>
</form>
<div class="layout" id="layout">
  <main id="main" tabindex="-1">
    <noscript><p class="error">This page needs JavaScript to show the daemon's state. Without it, read the API: <a href="/v1/status">/v1/status</a>, <a href="/v1/tasks">/v1/tasks</a>.</p></noscript>
    <h1 id="page-title">cts-runtime status</h1>
    <div id="page"><p class="muted" id="page-loading">Loading…</p></div>
  </main>
  <aside id="side" aria-label="Cluster and Consul" hidden>
    <section aria-labelledby="cluster-heading">
      <h2 id="cluster-heading">Cluster</h2>
      <div id="cluster"><p class="muted">Loading…</p></div>
    </section>
    <section aria-labelledby="consul-heading">
      <h2 id="consul-heading">Consul connection</h2>
      <div id="consul"><p class="muted">Loading…</p></div>
    </section>
  </aside>
</div>
<footer class="footer">
  <p><span id="version"></span> · <a href="/v1/status">/v1/status</a> · <a href="/v1/openapi.json">API description</a></p>
</footer>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
</body>
</html>
`;
