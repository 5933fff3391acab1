/**
 * @module The status page's HTML: landmarks (banner, main, complementary, contentinfo), one h1
 * and an h2 per region, a skip link, and a polite live region that announces updates. Script and
 * style are separate files of the daemon because the Content-Security-Policy forbids inline ones.
 */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>cts-runtime status</title>
<link rel="icon" href="icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="app.css">
<script src="dom.js" defer></script>
<script src="runs.js" defer></script>
<script src="app.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to tasks</a>
<header class="banner">
  <div class="banner-title">
    <h1>cts-runtime status</h1>
    <p id="instance" class="muted">Loading…</p>
  </div>
  <div class="banner-actions">
    <p id="live-state" class="live-state" data-state="connecting">Connecting…</p>
    <button id="refresh" type="button">Refresh</button>
  </div>
</header>
<div class="layout">
  <main id="main" tabindex="-1">
    <section aria-labelledby="tasks-heading">
      <h2 id="tasks-heading">Tasks</h2>
      <p id="tasks-note" class="muted" hidden></p>
      <div id="tasks" class="tasks"></div>
    </section>
  </main>
  <aside aria-label="Cluster and Consul">
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
  <p><span id="version"></span> · <a href="/v1/status">/v1/status</a> · <a href="/v1/openapi.json">API description</a> · <a href="/v1/events">Event stream</a></p>
</footer>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
</body>
</html>
`;
