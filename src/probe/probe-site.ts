/**
 * The probe of a live site: every answer fetched as its updater does, then every download it offers
 * checked once per updater, `concurrency` requests at a time. The findings come back sorted, so two
 * probes of the same site print the same lines.
 */
import { checkAnswer, type Finding } from './check-answer.js';
import { checkDownload } from './check-download.js';
import type { Target } from './targets.js';
import { UPDATERS } from './updaters.js';

/** Options of {@link probeSite}. */
export interface ProbeOptions {
  concurrency: number;
  /** The most one request may take, in seconds. */
  timeoutS: number;
  /** Download every package whole and compare its hashes. */
  deep: boolean;
}

/** What each updater was asked and what failed, for the table. */
export interface UpdaterTally {
  updater: string;
  answers: number;
  failedAnswers: number;
  downloads: number;
  failedDownloads: number;
}

/** Every finding, sorted, and the tally of each updater in the order of the targets. */
export interface ProbeResult {
  findings: Finding[];
  tallies: UpdaterTally[];
}

/** Probes `targets` and the downloads they offer. */
export async function probeSite(targets: readonly Target[], options: ProbeOptions): Promise<ProbeResult> {
  const tallies = new Map<string, UpdaterTally>();
  const tally = (updater: string) => {
    let t = tallies.get(updater);
    if (t === undefined)
      tallies.set(updater, (t = { updater, answers: 0, failedAnswers: 0, downloads: 0, failedDownloads: 0 }));
    return t;
  };
  // In the order of the targets, whichever answers first.
  for (const target of targets) tally(UPDATERS[target.kind].title);
  const findings: Finding[] = [];
  const downloads = new Map<string, () => Promise<void>>();
  await pool(
    targets.map((target) => async () => {
      const updater = UPDATERS[target.kind];
      const result = await checkAnswer(updater, target.url, options.timeoutS);
      const t = tally(updater.title);
      t.answers++;
      if (result.findings.length > 0) t.failedAnswers++;
      findings.push(...result.findings);
      for (const offered of result.offered) {
        const key = `${target.kind}\n${offered.url}`;
        if (downloads.has(key)) continue;
        downloads.set(key, async () => {
          const found = await checkDownload(updater, offered, options);
          t.downloads++;
          if (found.length > 0) t.failedDownloads++;
          findings.push(...found);
        });
      }
    }),
    options.concurrency,
  );
  await pool([...downloads.values()], options.concurrency);
  findings.sort(
    (a, b) =>
      compare(a.updater, b.updater) ||
      compare(a.url, b.url) ||
      compare(a.rule, b.rule) ||
      compare(a.message, b.message),
  );
  return { findings, tallies: [...tallies.values()] };
}

// --- internal ---

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `tasks`, at most `limit` at a time. */
async function pool(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
