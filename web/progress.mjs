// The page's live progress: the current phase (the run's log lines), a bar for the pool call
// in flight with units (checks, or the first pass's validation groups) done / total and per
// second, and the time since the run started. Same
// `track` interface as the terminal's bars (bench/cli/progress.mjs), so the run drives either.
import { int } from './results.mjs';

/**
 * Binds the progress panel.
 * @param {HTMLElement} root the panel: holds [data-phase], [data-bar] (a <progress>),
 *   [data-count], [data-rate] and [data-elapsed] elements
 * @returns {{start: () => void, log: (msg: string) => void,
 *   track: (label: string, total: number, unit?: string) => ((done: number) => void)|undefined,
 *   finish: (msg: string) => {msg: string, elapsed: string},
 *   restore: (closing: {msg: string, elapsed: string}|null) => void}} start shows the panel and
 *   resets the clock; log shows a phase line; track starts the bar for one pool call of `total`
 *   units (default 'checks': the records of a verify call) and returns its onProgress callback;
 *   finish stops the clock with a closing line and returns it with the time; restore shows such a
 *   closing line again (a run's, when its source is chosen again), or hides the panel (null).
 */
export function createProgressPanel(root) {
  const el = (name) => root.querySelector(`[data-${name}]`);
  const [phase, bar, count, rate, elapsed] = ['phase', 'bar', 'count', 'rate', 'elapsed'].map(el);
  let t0 = 0;
  let clock = null;
  const tick = () => { elapsed.textContent = `${((performance.now() - t0) / 1000).toFixed(1)} s`; };
  return {
    start() {
      root.hidden = false;
      root.classList.remove('done');
      t0 = performance.now();
      clearInterval(clock);
      clock = setInterval(tick, 100);
      tick();
    },
    log(msg) {
      phase.textContent = msg;
    },
    track(label, total, unit = 'checks') {
      if (!(total > 0)) return undefined;
      const started = performance.now();
      phase.textContent = label;
      bar.max = total;
      bar.value = 0;
      count.textContent = `0 / ${int(total)} ${unit}`;
      rate.textContent = '–';
      return (done) => {
        const seconds = (performance.now() - started) / 1000;
        bar.value = done;
        count.textContent = `${int(done)} / ${int(total)} ${unit}`;
        if (seconds > 0) rate.textContent = `${int(done / seconds)} ${unit}/s`;
      };
    },
    finish(msg) {
      clearInterval(clock);
      tick();
      phase.textContent = msg;
      bar.value = bar.max;
      count.textContent = '';
      rate.textContent = '';
      root.classList.add('done');
      return { msg, elapsed: elapsed.textContent };
    },
    restore(closing) {
      root.hidden = closing === null;
      if (closing === null) return;
      phase.textContent = closing.msg;
      elapsed.textContent = closing.elapsed;
      bar.max = 1;
      bar.value = 1;
      count.textContent = '';
      rate.textContent = '';
      root.classList.add('done');
    },
  };
}
