/**
 * @module Shared pieces of the status page's browser tests: Debian's Chromium driven headless by
 * puppeteer-core (scripts/setup-chromium.sh installs it), a page that records console errors and
 * Content-Security-Policy violations, the axe-core accessibility check injected through DevTools
 * (the page's own policy forbids inline scripts, and DevTools evaluation is not subject to it),
 * and screenshots kept as artifacts in one directory under the system's temp dir.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Where the screenshots stay after the tests (overwritten by the next run). */
export const SCREENSHOTS = join(tmpdir(), "cts-runtime-status-page-screenshots");

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors and uncaught exceptions. */
  readonly problems: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  cspViolations(): Promise<string[]>;
}

export async function watchedPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.evaluateOnNewDocument(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.setViewport(viewport);
  return {
    page, problems, requests,
    cspViolations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  };
}

/** Opens `url` and waits for the page's first load (`#page[data-loaded]`). */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("#page[data-loaded]", { timeout: 20_000 });
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules and best practices). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => String(n.target[0])) }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** A full-page screenshot in SCREENSHOTS; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The text of the element matching `selector` (empty when absent). */
export function textOf(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => (document.querySelector(s) as HTMLElement | null)?.innerText ?? "", selector);
}
