/**
 * One answer fetched and read as its updater does: status, content type, size cap, time, decoding.
 * Returns the downloads it offers and what a phone would fail on.
 */
import { decodeAnswer, type Offered } from './decode.js';
import { isFailure, networkFailure, readBody, request, type Failure } from './http.js';
import type { Updater } from './updaters.js';

/** The most the probe reads of an answer whose updater sets no cap: a phone holds it in memory whole. */
const PROBE_MAX_BYTES = 64 * 1024 * 1024;

/** A rule a phone fails by, for the lines and the annotations. */
export type Rule =
  | Failure['rule']
  | 'status'
  | 'content-type'
  | 'size-cap'
  | 'decode'
  | 'download'
  | 'content-length'
  | 'zip'
  | 'range'
  | 'hash';

/** One thing a phone would fail on: which updater, which URL, which rule, and what happened. */
export interface Finding {
  updater: string;
  url: string;
  rule: Rule;
  message: string;
}

/** What one answer gave: its problems, or the downloads it offers. */
export interface AnswerResult {
  findings: Finding[];
  offered: Offered[];
}

/** Fetches `url` as `updater` does, within `timeoutS` (or the updater's own limit, if shorter). */
export async function checkAnswer(updater: Updater, url: string, timeoutS: number): Promise<AnswerResult> {
  const own = updater.fetch.timeoutS;
  const limit = own === undefined ? timeoutS : Math.min(own, timeoutS);
  const signal = AbortSignal.timeout(limit * 1000);
  // A rule of the updater's names the code it comes from; an unreachable host is nobody's rule.
  const fail = (rule: Rule, message: string): AnswerResult => ({
    findings: [
      {
        updater: updater.title,
        url,
        rule,
        message: rule === 'unreachable' ? message : `${message} (${updater.source})`,
      },
    ],
    offered: [],
  });
  const reached = await request(url, { redirects: updater.fetch.redirects, signal });
  if (isFailure(reached)) return fail(reached.rule, timeoutMessage(reached, limit, own));
  const { response } = reached;
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => undefined);
    return fail('status', `answered ${response.status}; the updater reads a 2xx answer only`);
  }
  const type = response.headers.get('content-type') ?? '';
  const { contentType, contentTypeName, maxBytes } = updater.fetch;
  if (contentType !== undefined && !contentType.test(type.split(';')[0].trim())) {
    await response.body?.cancel().catch(() => undefined);
    return fail(
      'content-type',
      `answered Content-Type ${type === '' ? '(none)' : type}; the updater reads ${contentTypeName} only`,
    );
  }
  let body: Uint8Array | undefined;
  try {
    body = await readBody(response, maxBytes ?? PROBE_MAX_BYTES);
  } catch (error) {
    const failure = networkFailure(error, signal);
    return fail(failure.rule, timeoutMessage(failure, limit, own));
  }
  if (body === undefined)
    return fail(
      'size-cap',
      maxBytes === undefined
        ? `the answer is over ${PROBE_MAX_BYTES} bytes, more than any listing needs and more than the probe reads`
        : `the answer is over ${maxBytes} bytes, the most the updater reads`,
    );
  const decoded = decodeAnswer(updater, Buffer.from(body).toString('utf8'), reached.url);
  if ('refused' in decoded) return fail('decode', `${decoded.refused}: the update check fails`);
  return { findings: [], offered: decoded.offered };
}

// --- internal ---

function timeoutMessage(failure: Failure, limit: number, own: number | undefined): string {
  if (failure.rule !== 'timeout') return failure.message;
  return own !== undefined && own <= limit
    ? `no complete answer in ${limit} s, the updater's own limit for the whole request`
    : `no complete answer in ${limit} s (--timeout)`;
}
