/**
 * How a build tunes V8 for the size of its catalog: the interrupt budget and inlining (jit.mjs) and
 * how far the heaps may grow before a full collection. Each setting is the process's (every
 * thread's), so each is set around the work it serves and put back after it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { jitFlagsFor } from './jit.mjs';

/**
 * Runs `work` with V8's interrupt budget (and for a huge build its inlining: see jit.mjs) set for
 * `perThread` manifests compiled on each thread, and leaves those of every other command after it.
 * The flags are the process's: the workers, which allocate their functions' budgets as the
 * functions start running, compile with them too. The build and check commands leave the budget
 * to this (`setsJitBudget`), so that their loading and the workers' start run with V8's default
 * (jit.mjs).
 */
export function withJitBudget<T>(perThread: number, work: () => T): T {
  const { flags, back } = jitFlagsFor(perThread);
  return withV8Flag(flags, back, work);
}

/** From this many manifests on, {@link withTightHeap} holds the heaps down; below, memory is no concern and collecting less often is faster. */
export const TIGHT_HEAP_FROM = 20_000;

/**
 * Runs `work` with V8 letting its heaps grow by 30 % over what survives a full collection, instead
 * of its default of up to 4x, when there are at least {@link TIGHT_HEAP_FROM} manifests to compile.
 * Compiling a device leaves garbage behind it, little of it survives, and by default the heaps of
 * every thread swell to several times the live data before V8 collects it: at 100,000 manifests
 * that was 100 MB more peak memory, against ~10 % more CPU time for the extra collections. At
 * 1,000 manifests the extra collections were a fifth of the garbage collector's time for no memory
 * worth saving. The setting is the process's (every thread's), and put back afterwards.
 */
export function withTightHeap<T>(manifests: number, work: () => T, { collectFirst = false } = {}): T {
  if (manifests < TIGHT_HEAP_FROM) return work();
  return withV8Flag('--heap-growing-percent=30', '--heap-growing-percent=0', () => {
    if (collectFirst) collectNow();
    return work();
  });
}

// --- internal ---

/** Runs `work` with a flag of the process's V8 set, and `back` set after it, however it ends. */
function withV8Flag<T>(flag: string, back: string, work: () => T): T {
  setFlagsFromString(flag);
  try {
    return work();
  } finally {
    setFlagsFromString(back);
  }
}

/**
 * A full collection of this thread's heap, now. V8 sets the next old-generation limit only at a full
 * collection, from the growing percentage of that time: the calling thread's first one came while
 * it loaded and listed (at 25 MB live, before the setting above), and its limit, set 4x above that,
 * lasted the whole build, 35 MB more peak memory at 100k than when the first came a little later.
 * `gc` is a function of contexts made once V8 exposes it. One full collection at about 25 MB: 20 to
 * 30 ms here. Not for the preview's rebuilds ({@link withTightHeap} without `collectFirst`), whose
 * heap is large and whose every millisecond shows.
 */
function collectNow(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
