/**
 * @module The fetch handler mounted at `/ui`: the pages (`/ui/`, `/ui/tasks/<name>`,
 * `/ui/tasks/<name>/runs/<id>`: one HTML shell; the script renders the page its path names), their
 * scripts, style and icon (all served by the daemon: no build step, nothing from a CDN) and the
 * overview JSON. Every answer carries a strict Content-Security-Policy, so the pages can reach
 * nothing but the daemon's own origin.
 */
import { PAGE_API_SCRIPT } from "./page-api-script.ts";
import { PAGE_DOM_SCRIPT } from "./page-dom-script.ts";
import { PAGE_DRIFT_SCRIPT } from "./page-drift-script.ts";
import { PAGE_HTML } from "./page-html.ts";
import { PAGE_OVERVIEW_SCRIPT } from "./page-overview-script.ts";
import { PAGE_RUN_FINDINGS_SCRIPT } from "./page-run-findings-script.ts";
import { PAGE_RUN_SCRIPT } from "./page-run-script.ts";
import { PAGE_RUNS_SCRIPT } from "./page-runs-script.ts";
import { PAGE_SCRIPT } from "./page-script.ts";
import { PAGE_STREAM_SCRIPT } from "./page-stream-script.ts";
import { PAGE_STYLE } from "./page-style.ts";
import { PAGE_TASK_DELETE_SCRIPT } from "./page-task-delete-script.ts";
import { PAGE_TASK_EDIT_SCRIPT } from "./page-task-edit-script.ts";
import { PAGE_TASK_SCRIPT } from "./page-task-script.ts";

export const UI_PATH = "/ui";

/**
 * `default-src 'self'` and nothing looser: no inline script or style (the page has none), no
 * frames of it elsewhere, no form posts, no base URL changes.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2f6fdb"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>`;

const SCRIPT = "text/javascript; charset=utf-8";
const ASSETS: Readonly<Record<string, { readonly type: string; readonly body: string }>> = {
  "/ui/dom.js": { type: SCRIPT, body: PAGE_DOM_SCRIPT },
  "/ui/api.js": { type: SCRIPT, body: PAGE_API_SCRIPT },
  "/ui/stream.js": { type: SCRIPT, body: PAGE_STREAM_SCRIPT },
  "/ui/runs.js": { type: SCRIPT, body: PAGE_RUNS_SCRIPT },
  "/ui/drift.js": { type: SCRIPT, body: PAGE_DRIFT_SCRIPT },
  "/ui/run-findings.js": { type: SCRIPT, body: PAGE_RUN_FINDINGS_SCRIPT },
  "/ui/overview.js": { type: SCRIPT, body: PAGE_OVERVIEW_SCRIPT },
  "/ui/task-edit.js": { type: SCRIPT, body: PAGE_TASK_EDIT_SCRIPT },
  "/ui/task-delete.js": { type: SCRIPT, body: PAGE_TASK_DELETE_SCRIPT },
  "/ui/task.js": { type: SCRIPT, body: PAGE_TASK_SCRIPT },
  "/ui/run.js": { type: SCRIPT, body: PAGE_RUN_SCRIPT },
  "/ui/app.js": { type: SCRIPT, body: PAGE_SCRIPT },
  "/ui/app.css": { type: "text/css; charset=utf-8", body: PAGE_STYLE },
  "/ui/icon.svg": { type: "image/svg+xml", body: ICON_SVG },
};

/** The paths that are pages: the overview, a task, a run of a task. */
const PAGE_PATH = /^\/ui\/(?:tasks\/[^/]+(?:\/runs\/[^/]+)?)?$/;

/**
 * The pages and their files (and `/ui`, which redirects to them) hold no data, so they are served without
 * the API token: the page must load before it can ask for the token. Its data needs the token.
 */
export function isPublicAsset(path: string): boolean {
  return path === UI_PATH || PAGE_PATH.test(path) || Object.hasOwn(ASSETS, path);
}

function securityHeaders(type: string): Headers {
  return new Headers({
    "content-type": type,
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    // The page is tiny and changes with the daemon's version: always revalidate.
    "cache-control": "no-cache",
  });
}

/** `overview(task)`: the overview JSON, of one task when `task` is given. */
export function createStatusPageHandler(overview: (task?: string) => Record<string, unknown>) {
  return (request: Request): Response => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.method !== "GET" && request.method !== "HEAD") {
      const headers = securityHeaders("text/plain; charset=utf-8");
      headers.set("allow", "GET, HEAD");
      return new Response(`method ${request.method} is not allowed on ${path}: use GET\n`, { status: 405, headers });
    }
    if (path === UI_PATH) return new Response(null, { status: 308, headers: { location: `${UI_PATH}/` } });
    let body: string | undefined;
    let type = "text/html; charset=utf-8";
    if (path === "/ui/overview.json") {
      body = JSON.stringify(overview(url.searchParams.get("task") ?? undefined));
      type = "application/json";
    } else if (PAGE_PATH.test(path)) {
      body = PAGE_HTML;
    } else if (ASSETS[path]) {
      body = ASSETS[path].body;
      type = ASSETS[path].type;
    }
    if (body === undefined) {
      return new Response(`no page at ${path}\n`, { status: 404, headers: securityHeaders("text/plain; charset=utf-8") });
    }
    return new Response(request.method === "HEAD" ? null : body, { headers: securityHeaders(type) });
  };
}
