// How V8 should compile otapress's own code in a command's process (bin.mjs sets it first thing,
// for the process and so for its worker threads). Plain JavaScript, like bin.mjs: it is copied into
// lib/ as it is.
//
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
export const JIT_FLAGS = '--interrupt-budget=1048576';
