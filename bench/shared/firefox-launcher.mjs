// Launches Debian's Firefox ESR (/usr/bin/firefox-esr, installed by scripts/setup.mjs when run as
// root) under puppeteer-core over WebDriver BiDi, for the browser tests and benchmarks that check
// the product in a second engine (SpiderMonkey) beside Chromium's V8; never a downloaded browser.
// playwright-core drives only its own patched Firefox builds, puppeteer-core drives the stock one.
// Each launch gets a fresh profile folder under build/, removed on close.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { BROWSER_ARTIFACTS } from './chromium-launcher.mjs';

/** The Firefox the tests drive (IBD_FIREFOX overrides). */
export const FIREFOX = process.env.IBD_FIREFOX ?? '/usr/bin/firefox-esr';

/** SpiderMonkey's preference that turns on the wide-arithmetic proposal where Firefox does not run
 *  it by default (Firefox ESR 153): what the 'wide' variant's Firefox test and benchmark set. */
export const WIDE_ARITHMETIC_FIREFOX_PREF = 'javascript.options.wasm_wide_arithmetic';

/** How long one call into a page may take before it fails (puppeteer's protocolTimeout): longer
 *  than any pass or page run the tests and benchmarks make, so that a tab that never answers
 *  fails the run instead of hanging it. */
export const FIREFOX_CALL_TIMEOUT_MS = 300_000;

/** Why Firefox tests cannot run here (missing, or not a Firefox), or null when they can. */
export function firefoxUnavailable() {
  if (!existsSync(FIREFOX)) return `${FIREFOX} not found (scripts/setup.mjs installs Debian's firefox-esr when run as root)`;
  const r = spawnSync(FIREFOX, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  const said = `${r.stdout ?? ''}`.trim().split('\n')[0];
  return /^Mozilla Firefox \d+/.test(said) ? null : `${FIREFOX} is not a Firefox (its --version said ${JSON.stringify(said || r.error?.message || `exit ${r.status}`)})`;
}

const crashError = (detail, cause) => new Error(`the Firefox tab crashed: its content process died (${detail})`, { cause });
const firstLine = (err) => String(err?.message ?? err).split('\n')[0];

/**
 * A tab whose goto and evaluate fail, naming the crash, when its content process dies before or
 * while they run. puppeteer would otherwise wait for an answer that never comes (until
 * FIREFOX_CALL_TIMEOUT_MS), or run the next call in Firefox's crash page. While an evaluate
 * runs, a trivial probe goes into the tab each second: in a live tab it answers (or waits while
 * the page is busy), in a crashed one it is refused at once. A call that fails is followed by one
 * probe, which tells a crash from an error of the call's own.
 */
function guardTab(page) {
  const evaluate = page.evaluate.bind(page);
  const goto = page.goto.bind(page);
  const shownCrash = () => page.url().startsWith('about:tabcrashed');
  let dead = null; // the crash, once seen: every later call fails with it
  // probe: whether to probe while the call runs (not while a goto navigates: a probe may then
  // meet a document being replaced and be refused without any crash).
  const guarded = (call, probe) => new Promise((resolve, reject) => {
    if (!dead && shownCrash()) dead = crashError('the tab shows about:tabcrashed');
    if (dead) { reject(dead); return; }
    let settled = false;
    let probing = false;
    const finish = (fn, value) => { if (!settled) { settled = true; if (watch) clearInterval(watch); fn(value); } };
    const watch = probe && setInterval(() => {
      if (probing || settled) return;
      probing = true;
      evaluate(() => 1).then(() => { probing = false; }, (err) => {
        dead ??= crashError(`a probe into the tab was refused: ${firstLine(err)}`, err);
        finish(reject, dead);
      });
    }, 1000);
    call().then((value) => finish(resolve, value), async (err) => {
      // A call refused outright: a live tab answers a probe, a crashed one refuses it too.
      const alive = await Promise.race([evaluate(() => 1).then(() => true, () => false), new Promise((r) => setTimeout(() => r(true), 2000))]);
      if (!alive || shownCrash()) dead ??= crashError(`the call was refused: ${firstLine(err)}`, err);
      finish(reject, dead ?? err);
    });
  });
  page.evaluate = (...args) => guarded(() => evaluate(...args), true);
  page.goto = (...args) => guarded(() => goto(...args), false);
  return page;
}

/**
 * Launches headless Firefox with a fresh profile.
 * @param {{prefs?: Record<string, boolean|number|string>}} [options] prefs: about:config
 *   preferences (e.g. {[WIDE_ARITHMETIC_FIREFOX_PREF]: true}); none by default, as a user's
 *   browser runs
 * @returns {Promise<{context: {newPage: () => Promise<import('puppeteer-core').Page>}, version: string,
 *   close: () => Promise<void>}>} context.newPage() opens a tab (goto, evaluate(fn, arg), close,
 *   as a playwright page; launchChromium's shape; goto and evaluate reject with "the Firefox tab
 *   crashed: ..." when its content process dies, and after FIREFOX_CALL_TIMEOUT_MS without an
 *   answer); version: e.g. 'Firefox 153.8.0'; pid: the browser's process id (its content
 *   processes name it in -parentPid); close() stops the browser and deletes the profile.
 * @throws (rejects) Error in one line naming the executable when it is missing, is not a Firefox
 *   or fails to start.
 */
export async function launchFirefox({ prefs = {} } = {}) {
  const missing = firefoxUnavailable();
  if (missing) throw new Error(missing);
  mkdirSync(BROWSER_ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(BROWSER_ARTIFACTS, 'firefox-profile-'));
  let browser;
  let version;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: profile,
      extraPrefsFirefox: prefs, protocolTimeout: FIREFOX_CALL_TIMEOUT_MS,
    });
    version = (await browser.version()).replace(/^firefox\//i, 'Firefox ');
  } catch (err) {
    await browser?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`cannot start ${FIREFOX}: ${firstLine(err)}`, { cause: err });
  }
  return {
    context: { newPage: async () => guardTab(await browser.newPage()) },
    version,
    pid: browser.process()?.pid ?? null,
    async close() {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
