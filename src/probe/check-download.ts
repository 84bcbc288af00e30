/**
 * One offered download checked without fetching it whole: a ranged GET of its first four bytes,
 * through the redirects the updater's download client follows; with `deep`, the whole file hashed.
 */
import { createHash } from 'node:crypto';
import type { Finding, Rule } from './check-answer.js';
import type { Offered } from './decode.js';
import { isFailure, networkFailure, request, type Failure } from './http.js';
import type { Updater } from './updaters.js';

/** A zip's local file header signature, the first bytes of every OTA package. */
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/** Checks one download as `updater`'s phones get it; every problem found. */
export async function checkDownload(
  updater: Updater,
  offered: Offered,
  { timeoutS, deep }: { timeoutS: number; deep: boolean },
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const add = (rule: Rule, message: string) =>
    findings.push({ updater: updater.title, url: offered.url, rule, message });
  let url: URL;
  try {
    url = new URL(offered.url);
  } catch {
    add('download', `\`${offered.filename}\`'s address is not a URL`);
    return findings;
  }
  const redirects = updater.download.redirects;
  const signal = AbortSignal.timeout(timeoutS * 1000);
  const reached = await request(url.href, { redirects, signal, headers: { Range: 'bytes=0-3' } });
  if (isFailure(reached)) {
    add(reached.rule, failureText(reached, timeoutS));
    return findings;
  }
  const { response } = reached;
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel().catch(() => undefined);
    add('download', `answered ${response.status} for \`${offered.filename}\`; phones need the package (200)`);
    return findings;
  }
  const total =
    response.status === 206
      ? /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1]
      : (response.headers.get('content-length') ?? undefined);
  if (offered.size >= 0 && total !== undefined && Number(total) !== offered.size)
    add('content-length', `the file is ${total} bytes, the listing says size ${offered.size}: phones refuse it`);
  if (offered.propertyFiles !== undefined && response.status !== 206)
    add('range', 'answered a range request with 200: A/B phones stream the payload by ranges (ota_property_files)');
  let first: Buffer;
  try {
    first = await firstBytes(response, ZIP_MAGIC.length);
  } catch (error) {
    add(...failurePair(networkFailure(error, signal), timeoutS));
    return findings;
  }
  if (!first.equals(ZIP_MAGIC))
    add('zip', `begins with ${JSON.stringify(first.toString('latin1'))}, not a zip (PK\\x03\\x04)`);
  if (deep && findings.length === 0) findings.push(...(await hashWhole(updater, offered, url.href, timeoutS)));
  return findings;
}

// --- internal ---

function failureText(failure: Failure, timeoutS: number): string {
  return failure.rule === 'timeout' ? `no answer in ${timeoutS} s (--timeout)` : failure.message;
}

function failurePair(failure: Failure, timeoutS: number): [Rule, string] {
  return [failure.rule, failureText(failure, timeoutS)];
}

/** The first `n` bytes of the body (fewer when it is shorter); the rest is not read. */
async function firstBytes(response: Response, n: number): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < n) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, n);
}

/**
 * Downloads the whole file and compares its length and hashes with the listing's. A package takes
 * as long as it takes: the limit is `idleS` seconds without a byte.
 */
async function hashWhole(updater: Updater, offered: Offered, url: string, idleS: number): Promise<Finding[]> {
  const fail = (rule: Rule, message: string): Finding[] => [
    { updater: updater.title, url: offered.url, rule, message },
  ];
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), idleS * 1000);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), idleS * 1000);
  };
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  let length = 0;
  try {
    const reached = await request(url, { redirects: updater.download.redirects, signal: controller.signal });
    if (isFailure(reached) || reached.response.status !== 200 || reached.response.body === null) {
      const why = isFailure(reached) ? reached.message : `answered ${reached.response.status}`;
      return fail('download', `the whole download failed (--deep): ${why}`);
    }
    for await (const chunk of reached.response.body as unknown as AsyncIterable<Uint8Array>) {
      alive();
      sha256.update(chunk);
      md5.update(chunk);
      length += chunk.length;
    }
  } catch (error) {
    const why = controller.signal.aborted
      ? `nothing came for ${idleS} s`
      : networkFailure(error, controller.signal).message;
    return fail('download', `the whole download broke off after ${length} bytes (--deep): ${why}`);
  } finally {
    clearTimeout(timer);
  }
  const got = { sha256: sha256.digest('hex'), md5: md5.digest('hex') };
  if (offered.size >= 0 && length !== offered.size)
    return fail('content-length', `the download is ${length} bytes, the listing says size ${offered.size} (--deep)`);
  const differ = (['sha256', 'md5'] as const).filter(
    (name) => offered[name] !== undefined && offered[name] !== got[name],
  );
  if (differ.length === 0) return [];
  const which = differ.map((name) => `its ${name} is ${got[name]}, the listing says ${offered[name]}`);
  return fail('hash', `another file than the listing's (--deep): ${which.join('; ')}`);
}
