// Launches Debian's Firefox ESR (/usr/bin/firefox-esr, installed by scripts/setup.mjs when run as
// root) under puppeteer-core over WebDriver BiDi, for the browser tests and benchmarks that check
// the product in a second engine (SpiderMonkey) beside Chromium's V8; never a downloaded browser.
// playwright-core drives only its own patched Firefox builds, puppeteer-core drives the stock one.
// Each launch gets a fresh profile folder under build/, removed on close.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { BROWSER_ARTIFACTS } from './chromium-launcher.mjs';

/** The Firefox the tests drive (IBD_FIREFOX overrides). */
export const FIREFOX = process.env.IBD_FIREFOX ?? '/usr/bin/firefox-esr';

/** SpiderMonkey's preference that turns on the wide-arithmetic proposal where Firefox does not run
 *  it by default (Firefox ESR 153): what the 'wide' variant's Firefox test and benchmark set. */
export const WIDE_ARITHMETIC_FIREFOX_PREF = 'javascript.options.wasm_wide_arithmetic';

/** Why Firefox tests cannot run here, or null when they can. */
export function firefoxUnavailable() {
  return existsSync(FIREFOX) ? null : `${FIREFOX} not found (scripts/setup.mjs installs Debian's firefox-esr when run as root)`;
}

/**
 * Launches headless Firefox with a fresh profile.
 * @param {{prefs?: Record<string, boolean|number|string>}} [options] prefs: about:config
 *   preferences (e.g. {[WIDE_ARITHMETIC_FIREFOX_PREF]: true}); none by default, as a user's
 *   browser runs
 * @returns {Promise<{context: {newPage: () => Promise<import('puppeteer-core').Page>}, version: string,
 *   close: () => Promise<void>}>} context.newPage() opens a tab (goto, evaluate(fn, arg), close,
 *   as a playwright page; launchChromium's shape); version: e.g. 'firefox/153.8.0'; close() stops
 *   the browser and deletes the profile.
 * @throws (rejects) Error naming the executable when it is missing or fails to start.
 */
export async function launchFirefox({ prefs = {} } = {}) {
  const missing = firefoxUnavailable();
  if (missing) throw new Error(missing);
  mkdirSync(BROWSER_ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(BROWSER_ARTIFACTS, 'firefox-profile-'));
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: profile,
      extraPrefsFirefox: prefs, protocolTimeout: 0,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`cannot start ${FIREFOX}: ${err.message}`, { cause: err });
  }
  const version = await browser.version();
  return {
    context: { newPage: () => browser.newPage() },
    version,
    async close() {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
