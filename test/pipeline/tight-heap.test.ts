import { constants, PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';

// V8's heap growth is tightened only for catalogs where memory matters (src/pipeline/v8-tuning.ts).
const flags: string[] = [];
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  // Recorded; --expose-gc is also set, for the collection that follows it.
  return {
    ...v8,
    setFlagsFromString: (flag: string) => (flags.push(flag), flag === '--expose-gc' && v8.setFlagsFromString(flag)),
  };
});
const { TIGHT_HEAP_FROM, withTightHeap } = await import('../../src/pipeline/v8-tuning.js');

const isMajor = (e: PerformanceEntry) =>
  (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;

describe('withTightHeap', () => {
  it('leaves V8 alone below the threshold: a small build collects garbage less often', () => {
    flags.length = 0;
    expect(withTightHeap(TIGHT_HEAP_FROM - 1, () => 'done')).toBe('done');
    expect(flags).toEqual([]);
  });

  it('holds the heaps down for a large catalog, and puts the setting back even when the work throws', () => {
    flags.length = 0;
    expect(withTightHeap(TIGHT_HEAP_FROM, () => flags.slice())).toEqual(['--heap-growing-percent=30']);
    expect(flags).toEqual(['--heap-growing-percent=30', '--heap-growing-percent=0']);
    flags.length = 0;
    expect(() =>
      withTightHeap(100_000, () => {
        throw new Error('failed');
      }),
    ).toThrow('failed');
    expect(flags).toEqual(['--heap-growing-percent=30', '--heap-growing-percent=0']);
  });

  it('collects the heap before the work when asked, so that the tight setting sets the next limit at once', async () => {
    // The collection's entry reaches the observer on the event loop, after the work: it is told
    // apart by its start time, which must fall between the call and the work's first line.
    const majors: number[] = [];
    let observed!: () => void;
    const someMajor = new Promise<void>((resolve) => (observed = resolve));
    const observer = new PerformanceObserver((list) => {
      const found = list.getEntries().filter(isMajor);
      majors.push(...found.map((e) => e.startTime));
      if (found.length > 0) observed();
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      flags.length = 0;
      const called = performance.now();
      const workStarted = withTightHeap(TIGHT_HEAP_FROM, () => performance.now(), { collectFirst: true });
      expect(flags).toEqual(['--heap-growing-percent=30', '--expose-gc', '--heap-growing-percent=0']);
      await Promise.race([someMajor, delay(20_000)]);
      expect(majors.filter((start) => start >= called && start <= workStarted)).toHaveLength(1);
    } finally {
      observer.disconnect();
    }
  }, 30_000);
});
