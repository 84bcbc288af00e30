/**
 * One request as an updater makes it: redirects followed or refused by its rule, the whole exchange
 * within a time, the body read up to a cap. The network edge of `probe`; everything it finds wrong is
 * a {@link Failure}, never a throw.
 */
import type { RedirectRule } from './updaters.js';

/** What went wrong with a request, as the rule a phone would fail by and what happened. */
export interface Failure {
  rule: 'https' | 'redirect' | 'timeout' | 'unreachable';
  message: string;
}

/** The answer a client ends at, after the redirects it follows. */
export interface Reached {
  response: Response;
  /** The URL that answered. */
  url: string;
  /** The redirects followed to get there. */
  hops: string[];
}

/** Options of {@link request}. */
export interface RequestOptions {
  redirects: RedirectRule;
  /** The whole exchange, body included: aborted after it. */
  signal: AbortSignal;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
}

/** java.net.HttpURLConnection's default `http.maxRedirects`, and OkHttp's `MAX_FOLLOW_UPS`. */
const MAX_REDIRECTS = 20;

/**
 * Whether a phone would fetch `url` at all: https, or plain http on a loopback address (a preview or
 * a test standing in for an https host). Android refuses cleartext to any other host: the LineageOS
 * updaters declare `android:usesCleartextTraffic="false"` (AndroidManifest.xml, lineage-22.0 at
 * 3cb130d4), and apps targeting API 28 or later get no cleartext by default.
 */
export function fetchable(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

/** Requests `url` following the redirects `redirects` allows; the answer reached, or the failure. */
export async function request(url: string, options: RequestOptions): Promise<Reached | Failure> {
  const hops: string[] = [];
  if (!URL.canParse(url)) return { rule: 'https', message: `${url} is not a URL` };
  let current = new URL(url);
  for (;;) {
    if (!fetchable(current))
      return {
        rule: 'https',
        message: `${hops.length > 0 ? 'redirected to' : 'asks'} ${current.href}: phones fetch https only`,
      };
    let response: Response;
    try {
      response = await fetch(current, {
        method: options.method ?? 'GET',
        headers: options.headers,
        redirect: 'manual',
        signal: options.signal,
      });
    } catch (error) {
      return networkFailure(error, options.signal);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null)
      return { response, url: current.href, hops };
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { rule: 'redirect', message: `answered ${response.status} to \`${location}\`, which is not a URL` };
    }
    const refusal = refusedRedirect(options.redirects, response.status, current, next, hops.length);
    if (refusal !== undefined) return { rule: 'redirect', message: refusal };
    hops.push(next.href);
    current = next;
  }
}

/** Reads at most `max` bytes of `response` (everything without a cap); `undefined` when there are more. */
export async function readBody(response: Response, max = Infinity): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
  }
  return Buffer.concat(chunks);
}

/** What a thrown fetch or body read means: the time ran out, or the host could not be reached. */
export function networkFailure(error: unknown, signal: AbortSignal): Failure {
  if (signal.aborted) return { rule: 'timeout', message: 'no complete answer in time' };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return { rule: 'unreachable', message: `the request failed: ${why}` };
}

/** Whether a value is a {@link Failure}. */
export function isFailure<T extends object>(value: T | Failure): value is Failure {
  return 'rule' in value && 'message' in value && !('response' in value);
}

// --- internal ---

/** `localhost`, 127.0.0.0/8 or ::1. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Why a client with `rule` does not follow this redirect, or `undefined` when it does. */
function refusedRedirect(rule: RedirectRule, status: number, from: URL, to: URL, followed: number): string | undefined {
  const what = `answered ${status} to ${to.href}`;
  if (rule === 'refused') return `${what}, and this updater follows no redirect (followRedirects(false))`;
  if (rule !== 'followed' && from.protocol !== to.protocol)
    return `${what}, from ${from.protocol.slice(0, -1)} to ${to.protocol.slice(0, -1)}, which HttpURLConnection does not follow`;
  if (rule === 'once-same-protocol' && followed >= 1)
    return `${what}, a second redirect: the updater's download client follows one (HttpURLConnectionClient.handleDuplicateLinks)`;
  if (followed >= MAX_REDIRECTS) return `${what}, past ${MAX_REDIRECTS} redirects`;
  return undefined;
}
