// How V8 should compile otapress's own code in a command's process: the flag is the process's, so
// its worker threads' too. bin.mjs sets it once a command is loaded, before it runs; the build sets
// it itself when it starts compiling (v8-tuning.ts, withJitBudget). Plain JavaScript, like bin.mjs: it
// is copied into lib/ as it is.
import { setFlagsFromString } from 'node:v8';

// V8 optimizes a function with TurboFan once it has run a set amount of its bytecode (the
// interrupt budget, 66 KB by default), and in a command that runs once, the compiling does not
// pay back: in a cold build of 10,000 manifests TurboFan took 1.2 s of CPU per thread, every
// thread compiling the same functions again (1.2 s was half of a single-threaded build's user
// time; some large functions, such as the v1 text-order notice, were compiled three times after
// deoptimizing). With a budget 16 times the default (1 MiB), a function is optimized only once it
// has run a megabyte of its bytecode, so the compiler spends itself on the functions that run all
// build long: interleaved cold builds with 2 threads (2-core AMD EPYC, Node 20) took 0.72 to 0.80x
// the wall time and 0.70 to 0.75x the CPU time at 10,000 manifests, about the same at 1,000, and
// 0.9 to 1.0x at 100,000, where no optimizing at all (--no-opt) was 1.1 to 1.2x slower.
//
// Not while a build loads and starts its workers, though. Any V8 flag set away from its default
// changes V8's hash of its flags, and Node checks the code it caches for its own modules against
// that hash: after the change, the Node modules a thread loads (all of them, in a worker starting)
// are compiled from source (a worker that does nothing, in a CPU profile: 25 ms of
// compileForInternalLoader with no flag set, 59 ms after). A worker
// that does nothing took 43 to 56 ms to reach its first line with no flag set, 89 to 129 ms after
// --interrupt-budget=1048576, as after --no-log-colour, which changes nothing else; the budget set
// to its default value did not slow it. Set first thing (as bin.mjs did before), the budget held
// back a build's compile worker: 164 ms from `new Worker` to the first line of its module, against
// 80 ms, and the calling thread finished loading build-command.js 38 ms later (cold 1k builds,
// marks written by a copy of lib/, medians of 10 interleaved runs). The worker joins the compiling
// that much sooner.
// Whole cold builds on 2 threads, under callgrind: 1k 2.11 -> 1.86 billion instructions (0.88x),
// 10k 8.34 -> 8.11 (0.97x); 1k wall time 0.94x, CPU time 0.94x (medians of 11 interleaved runs;
// 2-core Intel Xeon, Node 20.20.2).
export const INTERRUPT_BUDGET = 1048576;
export const JIT_FLAGS = `--interrupt-budget=${INTERRUPT_BUDGET}`;

/**
 * bin.mjs's hook between loading a command and running it: sets {@link JIT_FLAGS} for the process,
 * but for a command that sets the budget itself when its work starts (`setsJitBudget`: build and
 * check).
 */
export function setCommandBudget(command) {
  if (!command.setsJitBudget) setFlagsFromString(JIT_FLAGS);
}

// A build sets the budget for the manifests each of its threads compiles, once it has listed them
// (build.ts): past some tens of thousands a thread, optimizing sooner pays back. At a megabyte,
// some functions that run once per build or per list were still not optimized after 20,000
// manifests: a pass of 5,000 manifests took 1.56 billion instructions from there on, against 1.27
// at 128 KiB. Instructions under callgrind with --single-threaded (so that the compiling counts),
// against 1 MiB: the compile passes of 25 devices of 200 builds on one thread, and whole cold
// builds with --threads 1 --no-cache (10k with the budget from the start, 100k with build.ts
// setting it, as it does now):
//
//   manifests on the thread   1,000    5,000    10,000 (build)   20,000   50,000   100,000 (build)
//   512 KiB                   +4.5 %   -4.9 %   +0.1 %           -2.3 %   -4.9 %
//   256 KiB                   +5.4 %   +6.3 %   +8.5 %           -2.8 %   -8.8 %
//   128 KiB                            +15.7 %  +12.3 %          -3.6 %   -10.8 %  -9.1 %
export const LARGE_BUILD_INTERRUPT_BUDGET = 131072;

// From 40,000 manifests a thread, sooner still: 64 KiB, about V8's default (67,584 bytes in Node
// 20). Whole cold builds with --no-cache on two threads, under callgrind, against 128
// KiB: 100,000 manifests (50,000 a thread) 40.73 to 38.95 billion instructions (0.956x); 80,000
// (40,000 a thread) 33.30 to 32.18 billion (0.966x); 50,000 (25,000 a thread) 23.45 to 24.00
// billion (1.023x, so 128 KiB stays below 40,000). 32 KiB at 100,000: 38.95 billion, as 64 KiB.
export const HUGE_BUILD_INTERRUPT_BUDGET = 65536;

/** The interrupt budget for a build that compiles `perThread` manifests on each of its threads. */
export function interruptBudgetFor(perThread) {
  if (perThread >= HUGE_BUILD_FROM) return HUGE_BUILD_INTERRUPT_BUDGET;
  return perThread >= LARGE_BUILD_FROM ? LARGE_BUILD_INTERRUPT_BUDGET : INTERRUPT_BUDGET;
}

/** Manifests a thread from which a build is large: the 128 KiB budget. */
const LARGE_BUILD_FROM = 25000;

/** Manifests a thread from which a build is huge: the 64 KiB budget, and less inlining. */
const HUGE_BUILD_FROM = 40000;

// With the budget that low, TurboFan compiles many functions, in every thread again (each has its
// own V8 heap): counted under callgrind with `node --single-threaded` (where the compiling runs on
// the thread it serves, so that it counts), TurboFan's own code was 3.2 of the 30.7 billion
// instructions of a cold `--no-cache` 100k build on one thread, and 6.7 of 36.7 billion on two. It
// spends much of that on inlining: with the bytecode it may inline into one function halved, from
// V8's 920 bytes to 460, a cold build of 50,000 manifests on one thread (a thread's share at 100k)
// took 16.71 billion instructions instead of 17.24 (0.969x; no inlining at all 16.76); at 10,000 it
// made no difference (5.689 against 5.695 billion), so builds below HUGE_BUILD_FROM keep V8's.
export const HUGE_BUILD_INLINED_BYTECODE = 460;

/** V8's own `--max-inlined-bytecode-size-cumulative` (Node 20), which a huge build puts back. */
export const V8_INLINED_BYTECODE = 920;

/**
 * The V8 flags for a build that compiles `perThread` manifests on each of its threads (the budget,
 * and for a huge build the inlining), and `back`, what puts them back for every other command.
 */
export function jitFlagsFor(perThread) {
  const flags = `--interrupt-budget=${interruptBudgetFor(perThread)}`;
  const back = `--interrupt-budget=${INTERRUPT_BUDGET}`;
  if (perThread < HUGE_BUILD_FROM) return { flags, back };
  const inlining = '--max-inlined-bytecode-size-cumulative=';
  return {
    flags: `${flags} ${inlining}${HUGE_BUILD_INLINED_BYTECODE}`,
    back: `${back} ${inlining}${V8_INLINED_BYTECODE}`,
  };
}
