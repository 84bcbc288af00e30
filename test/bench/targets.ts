// The list of targets that ends `npm run bench`: each figure beside its target, `met` or `MISSED`,
// and for a ratio measured in several rounds, its lowest and highest round.

/** A figure of the issues' targets: a median, in `unit` (`x` for a ratio), and where it must stay. */
export interface Target {
  figure: string;
  value?: number;
  unit: string;
  target: number;
  /** The value must stay under the target (else at most the target). */
  below?: boolean;
  /** For a ratio of two measurements, its value in each round (the median of these is `value`). */
  rounds?: number[];
}

/**
 * One line of the list, the figure padded to `width`. With two rounds or more it ends with the
 * lowest and highest round, and with how many rounds met the target when they disagree: on a
 * shared machine a ratio's rounds spread by more than a 5 % target (0.85x to 1.22x on a 2-core VM), and
 * a median on one side of it says little when the rounds fall on both.
 */
export function targetLine(t: Target, width: number): string {
  const shown = (n: number) => (t.unit === 'x' ? `${n.toFixed(2)}x` : `${n.toFixed(0)} ${t.unit}`);
  const meets = (v: number) => (t.below ? v < t.target : v <= t.target);
  const met = t.value === undefined ? 'n/a' : meets(t.value) ? 'met' : 'MISSED';
  const rounds = (t.rounds ?? []).filter((v) => Number.isFinite(v));
  const disagree = rounds.some(meets) && !rounds.every(meets);
  const spread =
    rounds.length < 2
      ? ''
      : `  (rounds ${shown(Math.min(...rounds))} to ${shown(Math.max(...rounds))}${disagree ? `: ${rounds.filter(meets).length} of ${rounds.length} met it` : ''})`;
  return `  ${t.figure.padEnd(width)}  ${(t.value === undefined ? '-' : shown(t.value)).padStart(9)}  target ${t.below ? 'under' : 'at most'} ${shown(t.target).padEnd(7)}  ${spread ? met.padEnd(6) : met}${spread}`;
}
