import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { phoneView } from '../helpers/clients.js';
import { runMain } from '../helpers/cli-process.js';
import {
  decodeDerpFest,
  decodeDerpFestDeviceInfo,
  decodeJavaResponse,
  decodePixelExperienceUpdate,
  decodePixelOs15,
  getJSONArray,
  getLong,
  getString,
  javaResponseReaders,
  parseJSONObject,
  type JavaResponseReader,
} from '../helpers/dialects/index.js';
import { ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

// Nine ROM projects' (two branches of one) OTA repositories (test/fixtures/ota-repositories/README.md names each
// repository, branch and commit), each imported in one command into a fresh `init` catalog and
// built: every listing comes back at its own path and decodes, with the updater's own reading
// (test/helpers/dialects/), equal to the repository's file on every key its updater reads that a
// catalog keeps. What a catalog does not keep is named below with the reason.

const FIXTURES = path.join(ROOT, 'test/fixtures/ota-repositories');

/** A fresh catalog made by `init`, the repository imported into it, and built. */
async function importAndBuild(rom: string) {
  const root = path.join(tempProject(), 'catalog');
  expect((await runMain(['init', root])).code).toBe(0);
  const imported = await runMain(['import', path.join(FIXTURES, rom), '--root', root]);
  expect(imported.code, imported.err.join('\n')).toBe(0);
  const built = await runMain(['build', '--root', root]);
  expect(built.code, built.err.join('\n')).toBe(0);
  const read = (file: string) => readFileSync(path.join(FIXTURES, rom, file), 'utf8');
  const dist = (file: string) => readFileSync(path.join(root, 'dist', file), 'utf8');
  const has = (file: string) => existsSync(path.join(root, 'dist', file));
  return { root, imported, read, dist, has };
}

/**
 * RisingOS's updater (`com.rising.updater`; rising-source-mod/android_packages_apps_Updater,
 * app/src/main/java/com/rising/updater/misc/Utils.java at 40411f50c35d5be1600d28d76f42bdd757a89c31,
 * `parseJsonUpdate`): the six build fields, `md5` the download id, nothing only shown.
 */
const RISINGOS: JavaResponseReader = {
  name: 'RisingOS (com.rising.updater)',
  repository: 'rising-source-mod/android_packages_apps_Updater',
  path: 'app/src/main/java/com/rising/updater/misc/Utils.java',
  commit: '40411f50c35d5be1600d28d76f42bdd757a89c31',
  shownKeys: [],
  sameBuildType: false,
  downgradeSwitch: true,
};

/** The keys RisingOS's files carry that crDroid's Java updater shows, read as it reads them. */
const RISING_SHOWN: JavaResponseReader = {
  ...javaResponseReaders.crdroid,
  shownKeys: ['maintainer', 'buildtype', 'forum', 'telegram', 'recovery', 'paypal'],
};

/** The shown keys a catalog keeps per device (device.yaml), not per build. */
const DEVICE_KEYS = ['maintainer', 'forum', 'telegram', 'paypal'];

/** The `changelog` of the newest build of `device` in the catalog. */
function newestChangelog(root: string, device: string): string | undefined {
  const folder = path.join(root, 'content', device);
  const manifests = readdirSync(folder)
    .filter((name) => name !== 'device.yaml')
    .map((name) => parse(readFileSync(path.join(folder, name), 'utf8')) as { timestamp: number; changelog?: string });
  return manifests.sort((a, b) => b.timestamp - a.timestamp)[0]?.changelog;
}

/** A changelog file as import keeps it: line ends trimmed, no blank lines around it. */
const normalised = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');

/**
 * Each line of the repository's changelog in the one the build writes back (headings as `#`...,
 * items (`* `, `+ `, indented or not) as `- `, a link as its text and address: render/dialect-changelog.ts; the lines of one
 * paragraph joined by a space and runs of blanks as one: the Markdown subset of catalog/changelog.ts).
 */
function expectChangelogBack(written: string, original: string, device: string) {
  const words = (line: string) =>
    line
      .trim()
      .replace(/^(#+\s*|[-*+]\s+)/, '')
      .replace(/\[([^\]]*)\]\((https:[^)]*)\)/g, '$1 <$2>')
      .replace(/\s+/g, ' ')
      .trim();
  const flat = written.split('\n').map(words).join(' ');
  const lines = normalised(original)
    .split('\n')
    .filter((l) => l.trim() !== '');
  for (const line of lines) expect(flat, `${device}: ${line}`).toContain(words(line));
}

describe('otapress import <folder> of real OTA repositories, then build', () => {
  it('crDroid (crdroid-java at /<device>.json): every file back at its path, equal for the Java updater', async () => {
    const { root, imported, read, dist } = await importAndBuild('crdroid');
    expect(imported.out).toContain('left alone (not a JSON listing or a changelog named after a device): README.md');
    const reader = javaResponseReaders.crdroid;
    for (const device of ['Mi439', 'Pong', 'beckham', 'akita']) {
      const original = decodeJavaResponse(read(`${device}.json`), reader)!;
      const rebuilt = decodeJavaResponse(dist(`${device}.json`), reader)!;
      expect(original).toHaveLength(1);
      // akita's `Weekly` is published as the path's one build type, `Monthly` (import says so).
      const lost = device === 'akita' ? ['buildtype'] : [];
      const kept = (u: (typeof original)[number]) => ({
        ...u,
        shown: Object.fromEntries(Object.entries(u.shown).filter(([k]) => !lost.includes(k))),
      });
      expect(rebuilt.map(kept), device).toEqual(original.map(kept));
      // The changelog is the newest build's, written back at crDroid's root `<device>_changelog.txt`.
      expect(newestChangelog(root, device)).toBe(`${normalised(read(`${device}_changelog.txt`))}\n`);
      expectChangelogBack(dist(`${device}_changelog.txt`), read(`${device}_changelog.txt`), device);
    }
    expect(imported.out.join('\n')).toContain('left out: the build type of 1 crdroid-java file (Weekly)');
    expect(imported.out).toContain(
      '  crdroid-java: 4 files at /{device}.json, list monthly (new); changelogs at /{device}_changelog.txt; buildtype "Monthly"',
    );
  });

  it('PixelOS (pixelos15 at /API/updater/<device>.json): every file and changelog back at its path', async () => {
    const { root, imported, read, dist, has } = await importAndBuild('pixelos');
    const out = imported.out.join('\n');
    expect(out).toContain(
      '  pixelos15: 3 files at /API/updater/{device}.json, list stable; changelogs at /API/updater/changelogs/{device}.md',
    );
    for (const device of ['aston', 'sweet', 'zeus']) {
      const file = `API/updater/${device}.json`;
      expect(decodePixelOs15(dist(file)), device).toEqual(decodePixelOs15(read(file)));
      expect(decodePixelOs15(dist(file))).toHaveLength(1);
      expectChangelogBack(
        dist(`API/updater/changelogs/${device}.md`),
        read(`API/updater/changelogs/${device}.md`),
        device,
      );
      expect(newestChangelog(root, device)).toBeDefined();
    }
    // G.json is a PixelExperience object of a device no longer updated, at the path of the
    // PixelOS 15 files: one path is written in one dialect, so import leaves it out and says so.
    expect(out).toContain('left out: 1 pixelexperience file (API/updater/G.json): not imported');
    expect(has('API/updater/G.json')).toBe(false);
    expect(out).toContain(
      'left alone (not a listing (no build records in it)): API/devices/aston.json, API/devices/sweet.json',
    );
    expect(out).toContain(
      "left alone (a device list: only the lineage-v1 format writes one (DerpFest's device_info)): API/devices.json",
    );
    expect(out).toContain(
      'left alone (another changelog of the device: those at /API/updater/changelogs/{device}.md are imported): API/changelogs/aston.md',
    );
  });

  it('DerpFest (lineage-v1 at /<device>.json, with info/device-info.json): every file back, equal for its Kotlin reader', async () => {
    const { root, imported, read, dist } = await importAndBuild('derpfest');
    const out = imported.out.join('\n');
    expect(out).toContain(
      '  lineage-v1: 3 files at /{device}.json, list official; changelogs at /changelog_{device}.txt; device list at /info/device-info.json',
    );
    expect(out).toContain('left alone (not a listing (no build records in it)): codename.json, maintainer.json');
    for (const device of ['Pong', 'a505fn', 'sakura']) {
      const original = decodeDerpFest(read(`${device}.json`))!;
      // `romtype` becomes the list's name (`official` for `Official`): DerpFest's updater shows it
      // and LineageOS's compares it with the release type ignoring case (README, The v1 interface).
      const typeless = (u: (typeof original)[number]) => ({ ...u, type: u.type?.toLowerCase() });
      expect(decodeDerpFest(dist(`${device}.json`))!.map(typeless), device).toEqual(original.map(typeless));
      expect(original).toHaveLength(1);
      expect(decodeDerpFestDeviceInfo(dist('info/device-info.json'), device), device).toEqual(
        decodeDerpFestDeviceInfo(read('info/device-info.json'), device),
      );
      expect(newestChangelog(root, device)).toBe(`${normalised(read(`changelog_${device}.txt`))}\n`);
      expectChangelogBack(dist(`changelog_${device}.txt`), read(`changelog_${device}.txt`), device);
    }
  });

  it('RisingOS (crdroid-java at /OTA/device/<VARIANT>/<device>.json): every variant folder back, equal for its updater', async () => {
    const { root, imported, read, dist } = await importAndBuild('risingos');
    const out = imported.out.join('\n');
    // RisingOS's changelog is one per device for every variant: its text goes into the newest
    // build, and the format's changelog path without the list writes it back, one file per device.
    expect(out).toContain(
      '  crdroid-java: 9 files at /OTA/device/{LIST}/{device}.json, list gapps (new), microg (new), vanilla (new); changelogs at /OTA/changelogs/{device}.txt; buildtype "STABLE"',
    );
    expect(out).not.toContain('changelog files at');
    // Each variant folder back in capitals with the same files (and the JSON 404 of the folder).
    const files = (folder: string) => (readdirSync(folder, { recursive: true }) as string[]).sort();
    expect(files(path.join(root, 'dist/OTA/device'))).toEqual(
      [...files(path.join(FIXTURES, 'risingos/OTA/device')), '404.html'].sort(),
    );
    for (const device of ['apollo', 'garnet', 'stone']) {
      const gapps = decodeJavaResponse(read(`OTA/device/GAPPS/${device}.json`), RISING_SHOWN)!;
      for (const variant of ['GAPPS', 'VANILLA', 'MICROG']) {
        const file = `OTA/device/${variant}/${device}.json`;
        const original = decodeJavaResponse(read(file), RISINGOS)!;
        expect(original, file).toHaveLength(1);
        expect(decodeJavaResponse(dist(file), RISINGOS), file).toEqual(original);
        // The keys only shown: `recovery` and `buildtype` are the build's own; the device's
        // maintainer and links are device.yaml's, one value per device, the first file's (GAPPS/):
        // apollo's VANILLA/ names another paypal, which its file then shows as GAPPS/'s.
        const shown = decodeJavaResponse(read(file), RISING_SHOWN)![0].shown;
        const deviceWide = Object.fromEntries(DEVICE_KEYS.map((key) => [key, gapps[0].shown[key]]));
        expect(decodeJavaResponse(dist(file), RISING_SHOWN)![0].shown, file).toEqual({ ...shown, ...deviceWide });
      }
      expect(normalised(newestChangelog(root, device)!)).toBe(normalised(read(`OTA/changelogs/${device}.txt`)));
      expectChangelogBack(dist(`OTA/changelogs/${device}.txt`), read(`OTA/changelogs/${device}.txt`), device);
    }
    expect(readdirSync(path.join(root, 'dist/OTA/changelogs')).sort()).toEqual(
      readdirSync(path.join(FIXTURES, 'risingos/OTA/changelogs')).sort(),
    );
  });

  it("SuperiorOS (lineage-v1 at /<device>.json): each device's file back, its devices.json left alone", async () => {
    const { imported, read, dist } = await importAndBuild('superioros');
    const out = imported.out.join('\n');
    expect(out).toContain('  lineage-v1: 2 files at /{device}.json, list official');
    // The project's list of all its devices (for its website) holds a build record per device;
    // phones ask for their own `<device>.json` only.
    expect(out).toContain(
      "left alone (its records name 9 devices: a list of devices, not a device's listing): devices.json",
    );
    for (const device of ['onclite', 'sweet']) {
      const records = (text: string) => (JSON.parse(text) as { response: Record<string, unknown>[] }).response;
      const original = records(read(`${device}.json`)).map(phoneView);
      expect(original).toHaveLength(1);
      expect(records(dist(`${device}.json`)).map(phoneView), device).toEqual(original);
    }
  });

  it("SuperiorOS ten (lineage-v1 at /builds/<device>.json): a size with a fraction back as the phones' getLong reads it", async () => {
    const { imported, read, dist } = await importAndBuild('superioros-ten');
    expect(imported.out.join('\n')).toContain('  lineage-v1: 2 files at /builds/{device}.json, list official');
    // LineageOS's Utils.parseJsonUpdate (lineage-17.1, the Android 10 updater SuperiorOS ten
    // builds on) reads each record with org.json: getLong keeps a number's whole part.
    const lineageRead = (text: string) =>
      getJSONArray(parseJSONObject(text), 'response').map((value) => {
        const r = value as Parameters<typeof getLong>[0];
        const text = (key: string) => getString(r, key);
        return {
          datetime: getLong(r, 'datetime'),
          size: getLong(r, 'size'),
          ...Object.fromEntries(['filename', 'id', 'url', 'version'].map((k) => [k, text(k)])),
          romtype: text('romtype').toLowerCase(),
        };
      });
    for (const device of ['hlte', 'X00T']) {
      const file = `builds/${device}.json`;
      expect(lineageRead(dist(file)), file).toEqual(lineageRead(read(file)));
    }
    expect(lineageRead(read('builds/hlte.json'))[0].size).toBe(579652812);
  });

  it('AxionOS (lineage-v1 at /OTA/<VARIANT>/<device>.json, a device list at the root): every variant file back', async () => {
    const { root, imported, read, dist } = await importAndBuild('axionos');
    const out = imported.out.join('\n');
    expect(out).toContain('  lineage-v1: 4 files at /OTA/{LIST}/{device}.json, list gms (new), vanilla (new)');
    // `dinfo.json` has DerpFest's device-list shape but lies at the root, where the build writes
    // no device list: it is left alone, and its entries still fill each device.yaml.
    expect(out).toContain(
      "left alone (a device list the build cannot write back there (the device list lies in a folder of its own (a file at the root could be a device's), e.g. /info/device-info.json); its entries fill the devices' device.yaml): dinfo.json",
    );
    for (const device of ['akita', 'sweet']) {
      for (const variant of ['GMS', 'VANILLA']) {
        const file = `OTA/${variant}/${device}.json`;
        const records = (text: string) => (JSON.parse(text) as { response: Record<string, unknown>[] }).response;
        const original = records(read(file)).map(phoneView);
        expect(original, file).toHaveLength(1);
        expect(records(dist(file)).map(phoneView), file).toEqual(original);
      }
      expect(readFileSync(path.join(root, 'content', device, 'device.yaml'), 'utf8')).toContain('maintainers:');
    }
  });

  it('Project Infinity-X (md5-six at /gapps/<device>.json and /vanilla/<device>.json): a path per list, every file back, equal for its updater', async () => {
    const { root, imported, read, dist } = await importAndBuild('infinityx');
    const out = imported.out.join('\n');
    // One dialect at two paths that differ by the variant folder: a path per list, neither left out.
    expect(out).toContain(
      '  md5-six: 5 files at /gapps/{device}.json (list gapps (new)) and /vanilla/{device}.json (list vanilla (new))',
    );
    expect(out).not.toContain('left out:');
    expect(readFileSync(path.join(root, 'content/site.yaml'), 'utf8')).toContain(
      '  md5-six: { path: { gapps: "/gapps/{device}.json", vanilla: "/vanilla/{device}.json" } }\n',
    );
    const files = (folder: string) => (readdirSync(folder, { recursive: true }) as string[]).sort();
    for (const variant of ['gapps', 'vanilla']) {
      for (const name of files(path.join(FIXTURES, 'infinityx', variant))) {
        const file = `${variant}/${name}`;
        const original = decodeJavaResponse(read(file), javaResponseReaders.infinityx)!;
        expect(original, file).toHaveLength(1);
        expect(decodeJavaResponse(dist(file), javaResponseReaders.infinityx), file).toEqual(original);
      }
    }
    // stone has no vanilla build: its vanilla file lists none, as the dialect writes every device's.
    expect(JSON.parse(dist('vanilla/stone.json'))).toEqual({ response: [] });
  });

  it('Spark (pixelexperience at /API/updater/<device>.json): each file back, its website data left alone', async () => {
    const { root, imported, read, dist } = await importAndBuild('spark');
    const out = imported.out.join('\n');
    expect(out).toContain(
      '  pixelexperience: 2 files at /API/updater/{device}.json, list stable; changelogs at /API/changelogs/{device}.md',
    );
    // `API/features.json` is an array of `{title, description}` for the website, no build in it.
    expect(out).toContain(
      'left alone (not a listing (no build records in it)): API/devices/RMX1971.json, API/features.json',
    );
    for (const device of ['RMX1971', 'alioth']) {
      const file = `API/updater/${device}.json`;
      const original = decodePixelExperienceUpdate(read(file), 'twelve');
      expect(original, device).toBeDefined();
      expect(decodePixelExperienceUpdate(dist(file), 'twelve'), device).toEqual(original);
      expectChangelogBack(dist(`API/changelogs/${device}.md`), read(`API/changelogs/${device}.md`), device);
      expect(newestChangelog(root, device)).toBeDefined();
    }
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const root = path.join(tempProject(), 'catalog');
    expect((await runMain(['init', root])).code).toBe(0);
    const before = snapshotTree(root);
    const dry = await runMain(['import', path.join(FIXTURES, 'derpfest'), '--root', root, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('would update content/site.yaml: 1 format added');
    expect(dry.out.filter((l) => l.startsWith('would create content/'))).toHaveLength(6);
    expect(dry.out.at(-1)).toBe('dry run: 7 files would be written; nothing was written');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('reports every broken file at file:line:col and writes nothing', async () => {
    const root = path.join(tempProject(), 'catalog');
    expect((await runMain(['init', root])).code).toBe(0);
    const repository = path.join(tempProject(), 'repository');
    cpSync(path.join(FIXTURES, 'derpfest'), repository, { recursive: true });
    const a505fn = readFileSync(path.join(repository, 'a505fn.json'), 'utf8');
    writeFileSync(path.join(repository, 'a505fn.json'), a505fn.replace('"id"', '"idx"'));
    writeFileSync(path.join(repository, 'Pong.json'), '{"response": [{"datetime": 1,');
    const before = snapshotTree(root);
    const result = await runMain(['import', repository, '--root', root]);
    expect(result.code).toBe(1);
    expect(result.err.some((l) => /\/a505fn\.json:\d+:\d+ {2}response\.0\.id {2}/.test(l))).toBe(true);
    expect(result.err.some((l) => /\/Pong\.json:1:\d+ {2}\(file\) {2}not (valid )?JSON/.test(l))).toBe(true);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('skips hidden folders (.git) and names a link, never following it', async () => {
    const root = path.join(tempProject(), 'catalog');
    expect((await runMain(['init', root])).code).toBe(0);
    const repository = path.join(tempProject(), 'repository');
    cpSync(path.join(FIXTURES, 'derpfest'), repository, { recursive: true });
    mkdirSync(path.join(repository, '.git'));
    writeFileSync(path.join(repository, '.git', 'broken.json'), '{"response": [{"filename": ');
    symlinkSync(path.join(FIXTURES, 'crdroid', 'akita.json'), path.join(repository, 'akita.json'));
    const result = await runMain(['import', repository, '--root', root, '--dry-run']);
    expect(result.code, result.err.join('\n')).toBe(0);
    expect(result.out).toContain('left alone (a link (never followed)): akita.json');
    expect(result.out.join('\n')).not.toContain('.git');
    expect(result.out[0]).toBe('3 devices in 3 listing files: Pong, a505fn, sakura');
  });
});
