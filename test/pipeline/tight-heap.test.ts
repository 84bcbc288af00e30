import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';

// V8's heap growth is tightened only for catalogs where memory matters (src/pipeline/build.ts).
const flags: string[] = [];
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  // Recorded; --expose-gc is also set, for the collection that follows it.
  return { ...v8, setFlagsFromString: (flag: string) => (flags.push(flag), flag === '--expose-gc' && v8.setFlagsFromString(flag)) };
});
const { TIGHT_HEAP_FROM, withTightHeap } = await import('../../src/pipeline/build.js');

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
    expect(() => withTightHeap(100_000, () => { throw new Error('failed'); })).toThrow('failed');
    expect(flags).toEqual(['--heap-growing-percent=30', '--heap-growing-percent=0']);
  });

  it('collects the heap first when the build asks, so that the tight setting sets the next limit at once', async () => {
    const majors: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => majors.push(...list.getEntries().filter((e) => ((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)));
    observer.observe({ entryTypes: ['gc'] });
    try {
      flags.length = 0;
      expect(withTightHeap(TIGHT_HEAP_FROM, () => majors.length, { collectFirst: true })).toBe(0);
      expect(flags).toEqual(['--heap-growing-percent=30', '--expose-gc', '--heap-growing-percent=0']);
      // Entries arrive on the event loop.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(majors.length).toBeGreaterThanOrEqual(1);
    } finally {
      observer.disconnect();
    }
  });
});
