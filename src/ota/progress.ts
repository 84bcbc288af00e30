import { scaleBytes } from '../render/markup.js';

/** Bytes, rate and time left of a long read, as one terminal line. Pure: the caller owns the clock. */
export function formatProgress(done: number, total: number, elapsedMs: number, width = 24): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * width);
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const left = rate > 0 ? (total - done) / rate : undefined;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${formatBytes(done)} / ${formatBytes(total)}  ${formatBytes(rate)}/s  ${left === undefined ? '--:--' : formatDuration(left)} left`;
}

/** 1536 → `1.5 KiB`: one decimal always, so that a redrawn progress line keeps its width. */
export function formatBytes(bytes: number): string {
  const [value, unit] = scaleBytes(bytes);
  return unit === 'B' ? `${Math.round(value)} B` : `${value.toFixed(1)} ${unit}`;
}

/** Seconds as `m:ss`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A progress bar on a terminal stream, redrawn at most ten times a second; on anything that is
 * not a terminal (a pipe, a CI log) it prints nothing at all.
 */
export function progressBar(
  stream: NodeJS.WriteStream,
  label: string,
): { update(done: number, total: number): void; end(): void } {
  if (!stream.isTTY) return { update() {}, end() {} };
  const start = Date.now();
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      drawn = true;
      stream.write(`\r${label} ${formatProgress(done, total, now - start)}\x1b[K`);
    },
    // Once: the command ends the bar before its report, and again whatever way it leaves.
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
