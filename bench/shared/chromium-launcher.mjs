// Launches Debian's Chromium (/usr/bin/chromium, installed by scripts/setup.mjs when run as
// root) under playwright-core for the browser tests and for `npm run bench`'s Chromium figures;
// never a downloaded browser. Each launch gets a fresh profile folder under build/, removed on
// close.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { BUILD_DIR } from '../../wasm/paths.mjs';

/** Where browser tests write their artifacts (screenshots): build/browser-tests. */
export const BROWSER_ARTIFACTS = path.join(BUILD_DIR, 'browser-tests');
/** The browser the tests drive (IBD_CHROMIUM overrides). */
export const CHROMIUM = process.env.IBD_CHROMIUM ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable() {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (scripts/setup.mjs installs Debian's chromium when run as root)`;
}

/** V8's flag that turns on the wide-arithmetic proposal in Chromium 156 (not on by default
 *  there): what the 'wide' variant's tests and benchmark launch it with. */
export const WIDE_ARITHMETIC_JS_FLAG = '--wasm-wide-arithmetic';

/**
 * Launches headless Chromium with a fresh profile (a persistent context on a new folder).
 * @param {{jsFlags?: string[]}} [options] jsFlags: V8 flags, passed as --js-flags (e.g.
 *   WIDE_ARITHMETIC_JS_FLAG); none by default, as a user's browser runs
 * @returns {Promise<{context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 *   context.newPage() opens a tab; close() stops the browser and deletes the profile.
 * @throws (rejects) Error naming the executable when it is missing or fails to start.
 */
export async function launchChromium({ jsFlags = [] } = {}) {
  const missing = browserUnavailable();
  if (missing) throw new Error(missing);
  mkdirSync(BROWSER_ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(BROWSER_ARTIFACTS, 'profile-'));
  let context;
  try {
    // playwright passes the profile as --user-data-dir itself.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
        '--disable-background-networking', '--disable-component-update',
        ...(jsFlags.length ? [`--js-flags=${jsFlags.join(' ')}`] : []),
      ],
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`cannot start ${CHROMIUM}: ${err.message}`, { cause: err });
  }
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
