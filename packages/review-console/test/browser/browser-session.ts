import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumExecutable } from './chromium-executable.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const axeSource = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'),
  'utf8',
);

/** One Chromium for a whole test file (launching one takes seconds). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });

/** What the browser saw of the console in a context: every URL asked, every page's headers, errors. */
export type Observed = {
  readonly urls: string[];
  readonly pages: Array<{ url: string; headers: Record<string, string> }>;
  readonly errors: string[];
};

/** A context logged in as `user` through the host's HTTP Basic login, observed. */
export const loggedInContext = async (
  browser: Browser,
  user: { readonly username: string; readonly password: string },
  options: { readonly javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; observed: Observed }> => {
  const context = await browser.newContext({
    httpCredentials: user,
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const observed: Observed = { urls: [], pages: [], errors: [] };
  context.on('request', (request) => observed.urls.push(request.url()));
  context.on('response', async (response) => {
    if (response.request().resourceType() === 'document' && response.status() < 300) {
      observed.pages.push({ url: response.url(), headers: await response.allHeaders() });
    }
  });
  context.on('console', (message) => {
    // A favicon the host does not serve is the browser's own request, not the console's.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
      observed.errors.push(`${message.text()} (${message.location().url})`);
    }
  });
  context.on('weberror', (error) => observed.errors.push(error.error().message));
  return { context, observed };
};

const checkedViews = new WeakMap<BrowserContext, Set<string>>();

/**
 * axe-core on the page as it is now: no serious or critical violation. The engine is evaluated
 * through the DevTools protocol, which the page's policy (no inline script) does not govern.
 */
export const expectAccessible = async (page: Page, what: string): Promise<void> => {
  // The same view in the same state (a second decision on a hit) is checked once per context.
  const checked = checkedViews.get(page.context()) ?? new Set<string>();
  checkedViews.set(page.context(), checked);
  if (checked.has(what)) return;
  checked.add(what);
  await page.evaluate(axeSource);
  // In the page (a string: this project's types have no DOM).
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map(({ id, impact, help, nodes }) => ({
      id, impact, help, targets: nodes.slice(0, 5).map((node) => JSON.stringify(node.target)),
    })))`)) as Array<{ id: string; impact: string | null; help: string; targets: string[] }>;
  const serious = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious, `axe on ${what}`).toEqual([]);
};

/**
 * A screenshot, taken only when asked (they are pictures for people, not checks, and Chromium
 * spends CPU on each): REVIEW_CONSOLE_SCREENSHOTS=tmp writes it under .tmp/review-console-screenshots,
 * =docs there and under docs/review-console (the ones the docs show). A plain run takes none and
 * leaves the tree as it was.
 */
export const screenshot = async (target: Page | Locator, name: string) => {
  const wanted = process.env.REVIEW_CONSOLE_SCREENSHOTS;
  if (wanted !== 'tmp' && wanted !== 'docs') return;
  const image = await target.screenshot();
  expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
  const folders = [join(repositoryRoot, '.tmp/review-console-screenshots')];
  if (wanted === 'docs') folders.push(join(repositoryRoot, 'docs/review-console'));
  for (const folder of folders) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${name}.png`), image);
  }
};

/** What has focus now, as a keyboard user hears it: the control's label or text. */
const focusedName = (page: Page): Promise<string> =>
  page.evaluate(`(() => {
    const element = document.activeElement;
    if (element === null) return '';
    const label = element.labels && element.labels.length > 0 ? element.labels[0].textContent : '';
    const name = label || element.textContent || element.getAttribute('aria-label') || '';
    return element.tagName.toLowerCase() + ' ' + name.replace(/\\s+/g, ' ').trim();
  })()`);

/**
 * Presses Tab until the focused control's tag and name match `wanted` (a keyboard user moving on
 * to it): fails when a whole round of the page never reaches it.
 */
export const tabTo = async (page: Page, wanted: RegExp, maxPresses = 400): Promise<void> => {
  const seen: string[] = [];
  for (let presses = 0; presses < maxPresses; presses += 1) {
    await page.keyboard.press('Tab');
    const name = await focusedName(page);
    if (wanted.test(name)) return;
    seen.push(name);
  }
  throw new Error(`Tab never reached ${wanted} (focus went through: ${seen.slice(0, 60).join(' | ')})`);
};
