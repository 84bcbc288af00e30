import { describe, expect, it, vi } from 'vitest';

// V8's heap growth is tightened only for catalogs where memory matters (src/build/build.ts).
const flags: string[] = [];
vi.mock('node:v8', async (original) => ({ ...(await original<typeof import('node:v8')>()), setFlagsFromString: (flag: string) => flags.push(flag) }));
const { TIGHT_HEAP_FROM, withTightHeap } = await import('../src/build/build.js');

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
});
