// A progress bar on stderr for the main job's long phases (the first pass through the workers,
// timed passes): units (checks, or validation groups) done / total, units per second and ETA,
// drawn by cli-progress. Only on a terminal: with
// stderr not a TTY, or with --json, there is no bar at all (the [bench] log lines stay).
import cliProgress from 'cli-progress';

/** Nothing shown: the `track` of a progress reporter that is off. */
const NO_TRACK = () => undefined;

/**
 * Creates the progress reporter of one run.
 * @param {{enabled: boolean, stream?: import('node:stream').Writable}} options enabled: draw bars
 *   (main.mjs: stderr is a TTY and not --json); stream: where (default process.stderr).
 * @returns {{track: (label: string, total: number, unit?: string) => (((done: number) => void) | undefined),
 *   done: () => void}} track starts a bar for one pool call of `total` units (default
 *   'checks': the records of a pool.verify) and returns
 *   its onProgress callback (undefined when off, or for 0 records); the bar clears itself when
 *   `done` reaches `total`. done() removes a bar left unfinished (a failed pass).
 */
export function createProgress({ enabled, stream = process.stderr }) {
  if (!enabled) return { track: NO_TRACK, done() {} };
  let current = null;
  const stop = () => {
    current?.stop();
    current = null;
  };
  return {
    track(label, total, unit = 'checks') {
      stop();
      if (!(total > 0)) return undefined;
      const bar = new cliProgress.SingleBar({
        stream,
        format: `{label} [{bar}] {value}/{total} ${unit} | {speed} ${unit}/s | ETA {eta_formatted}`,
        formatValue: (v, _opts, type) => (type === 'value' || type === 'total' ? Number(v).toLocaleString('en-US') : v),
        barsize: 30,
        hideCursor: true,
        clearOnComplete: true,
        stopOnComplete: true,
        etaBuffer: 50,
        fps: 10,
      }, cliProgress.Presets.shades_classic);
      const t0 = performance.now();
      bar.start(total, 0, { label, speed: '-' });
      current = bar;
      return (done) => {
        if (current !== bar) return;
        const seconds = (performance.now() - t0) / 1000;
        const speed = seconds > 0 ? Math.round(done / seconds).toLocaleString('en-US') : '-';
        bar.update(done, { speed });
        if (done >= total) current = null; // stopOnComplete has stopped and cleared it
      };
    },
    done: stop,
  };
}
