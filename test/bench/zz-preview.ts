import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { incrementalRebuild } from '../../src/build/rebuild.js';
const root = process.argv[2];
const mb = (l: string) => { const m = process.memoryUsage(); console.log(l, 'rss', (m.rss/1048576).toFixed(0), 'heap', (m.heapUsed/1048576).toFixed(0), 'ext', (m.external/1048576).toFixed(0), 'maxrss', (process.resourceUsage().maxRSS/1024).toFixed(0)); };
mb('start');
const rebuild = incrementalRebuild(root);
let t = performance.now();
const first = rebuild([]);
console.log('first', (performance.now()-t).toFixed(0), 'ms', first.problems.length);
mb('first');
globalThis.gc?.(); mb('gc');
const dir = `${root}/content/oriole`;
const name = readdirSync(dir).sort()[0];
const orig = readFileSync(`${dir}/${name}`, 'utf8');
for (let i = 0; i < 5; i++) {
  writeFileSync(`${dir}/${name}`, orig.replace(/^size: (\d+)$/m, `size: ${2000 + i}`));
  t = performance.now();
  const r = rebuild([`content/oriole/${name}`]);
  const ms = performance.now() - t;
  const body = String(Buffer.from(r.tree!.files.get('/api/v1/oriole/' + /^channel: (\S+)$/m.exec(orig)![1] + '/index.json')!));
  console.log('rebuild', ms.toFixed(1), 'ms', body.includes(`"size":${2000 + i},`), 'total', (performance.now()-t).toFixed(1));
}
writeFileSync(`${dir}/${name}`, orig);
mb('end');
