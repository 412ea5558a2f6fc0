/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, so they see the DOM.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ROOT, ensureBuilt } from '../support/built-service';
import { ADMIN_TOKEN, TestApp, TestAppOptions, startTestApp } from '../support/test-app';

export const SCREENSHOTS = join(ROOT, 'docs', 'console');

/**
 * The console is served from dist/console. A bare checkout builds dist/ under the build lock that files starting
 * the built service take too: a console built alone beside them was emptied by their `nest build`.
 */
export const ensureConsoleBuilt = ensureBuilt;

/** Debian's Chromium, headless, with a fresh profile and nothing phoning home. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs the page in with the admin token through the sign-in form, as an operator does. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/orgs$/);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script goes in through the
 * DevTools protocol (page.evaluate), not a <script> tag, so the console's strict CSP stays on while it runs.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // A string expression is evaluated through the protocol, outside the page's CSP (which forbids eval).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: any[] }> } };
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
}

/** Waits until the first match of `locator` contains `text` (its text is read again every 100 ms). */
export async function expectText(locator: Locator, text: string, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = '';
  while (Date.now() < deadline) {
    last =
      (await locator
        .first()
        .textContent({ timeout })
        .catch(() => '')) ?? '';
    if (last.includes(text)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected "${text}" in ${locator}, last saw "${last}"`);
}

/** Waits until the first match of `locator` no longer reads `from`. */
export async function expectTextChange(locator: Locator, from: string, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const now =
      (await locator
        .first()
        .textContent()
        .catch(() => from)) ?? from;
    if (now !== from) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`expected ${locator} to change from "${from}"`);
}

/**
 * axe on the page as shown at desktop (1280 px) and phone (390 px) width, no horizontal overflow at either, and
 * a screenshot at each for docs/console.md (`<name>.png`, `<name>-phone.png`); the page is left at 1280 px.
 */
export async function checkPage(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.waitForSelector('[aria-busy="true"]', { state: 'detached' });
  for (const [width, suffix] of [
    [1280, ''],
    [390, '-phone'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    const violations = await seriousViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect({ page: name, width, violations, overflow }).toEqual({ page: name, width, violations: [], overflow: false });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}${suffix}.png`), fullPage: options.fullPage ?? false });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** A page of a fresh Chromium, keeping every Content Security Policy violation Chromium reports on it. */
export async function openPage(): Promise<{ page: Page; cspViolations: string[]; close: () => Promise<void> }> {
  const { context, close } = await launchChromium();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
  return { page, cspViolations, close };
}

/** A fresh Chromium page signed in to the console of the app at `baseUrl` with the admin token. */
export async function signedInPage(
  baseUrl: string,
): Promise<{ page: Page; cspViolations: string[]; close: () => Promise<void> }> {
  const opened = await openPage();
  await signIn(opened.page, baseUrl, ADMIN_TOKEN);
  return opened;
}

/** What `consoleInBrowser` gives a describe block once its beforeAll ran. */
export interface ConsoleInBrowser {
  t: TestApp;
  page: Page;
  cspViolations: string[];
}

/**
 * Registers the usual hooks of a console browser test: the console built, the app started, a Chromium page
 * signed in (keeping CSP violations); both closed after the block. Read the fields inside tests and later hooks.
 */
export function consoleInBrowser(options: TestAppOptions = {}): ConsoleInBrowser {
  const opened = {} as ConsoleInBrowser & { close?: () => Promise<void> };
  beforeAll(async () => {
    ensureConsoleBuilt();
    opened.t = await startTestApp(options);
    Object.assign(opened, await openPage());
    await signIn(opened.page, opened.t.baseUrl, ADMIN_TOKEN);
  }, 120_000);
  afterAll(async () => {
    await opened.close?.();
    await opened.t?.close();
  });
  return opened;
}
