// End-to-end test of the sandbox's "Your file" view (sandbox/src/file/): a user's own file.
// e2e/run.mjs runs it with the rest (`npm run test:e2e`); alone, after `npm run sandbox:build`:
// `node e2e/userFile.mjs`. It checks, in headless Chromium against `vite preview`:
//   1. RobotExpressive.glb picked through the file input (Playwright's setInputFiles): the view
//      names the file, lists every animation of the file (read here from the .glb's own JSON),
//      plays the first, and draws it (the stage's pixels change where the figure stands);
//      clicking another clip plays that one;
//   2. cmu_131_01_start_walk_stop.bvh dropped on the page (a drop event with the file) while the
//      Robot is shown plays on the Robot through the humanoid joint map, named after its file;
//   3. Fox.glb (centimetres, so 79 "metres" tall as glTF reads it) shows loadGltf's units
//      warning and is read with { height: 1.8 }: 1.8 m tall;
//      as Fox.gltf with its Fox.bin picked together, the same;
//   4. `?file=assets/RobotExpressive.glb` (a served file) opens it at once;
//   5. no console errors, page errors or failed requests.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const asset = (name) => join(repo, 'assets', name);

/** The animation names of a .glb (glTF 2.0 §4.4: 12-byte header, then the JSON chunk). */
function glbAnimations(path) {
  const bytes = readFileSync(path);
  const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
  return (json.animations ?? []).map((animation) => animation.name);
}

/** Pixels of the stage's canvas that differ between two screenshots (summed RGB difference > 30), and in which box. */
async function changedPixels(page, a, b) {
  return page.evaluate(async ([pa, pb]) => {
    const decode = async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      g.drawImage(bitmap, 0, 0);
      return { d: g.getImageData(0, 0, bitmap.width, bitmap.height).data, w: bitmap.width, h: bitmap.height };
    };
    const A = await decode(pa), B = await decode(pb);
    let changed = 0, x0 = Infinity, x1 = -1, y0 = Infinity, y1 = -1;
    for (let i = 0; i < A.d.length; i += 4) {
      if (Math.abs(A.d[i] - B.d[i]) + Math.abs(A.d[i + 1] - B.d[i + 1]) + Math.abs(A.d[i + 2] - B.d[i + 2]) <= 30) continue;
      changed++;
      const x = (i / 4) % A.w, y = Math.floor(i / 4 / A.w);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    return { changed, total: A.w * A.h, box: [x0, y0, x1, y1], width: A.w, height: A.h };
  }, [a.toString('base64'), b.toString('base64')]);
}

/** Saturated pixels (max − min channel > 60: a character's colours, not the grey-blue ground) of a screenshot, and their box. */
async function colouredPixels(page, png) {
  return page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    g.drawImage(bitmap, 0, 0);
    const d = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let count = 0, x0 = Infinity, x1 = -1, y0 = Infinity, y1 = -1;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) <= 60) continue;
      count++;
      const x = (i / 4) % bitmap.width, y = Math.floor(i / 4 / bitmap.width);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    return { count, total: bitmap.width * bitmap.height, box: [x0, y0, x1, y1], width: bitmap.width, height: bitmap.height };
  }, png.toString('base64'));
}

/** Runs the checks with e2e/run.mjs's helpers: `openPage(query)` → { page, errors }, `check(name, ok, detail)`. */
export async function checkUserFile({ openPage, check, until }) {
  const { page, errors } = await openPage('?view=file');
  const shot = () => page.locator('#stage canvas').screenshot();
  const report = () => page.evaluate(() => window.__sandbox.file());
  await page.evaluate(() => (document.getElementById('overlay').style.visibility = 'hidden'));
  const empty = await shot();

  // 1. RobotExpressive.glb through the file input.
  await page.setInputFiles('#file-input', asset('RobotExpressive.glb'));
  await until(page, () => window.__sandbox.file().loads >= 1, 60_000);
  await page.waitForTimeout(500);
  let r = await report();
  const animations = glbAnimations(asset('RobotExpressive.glb'));
  const listed = r.clips.map((text) => text.replace(/ \([^)]*\)$/, ''));
  check('your file: RobotExpressive.glb picked in the file input is shown, named in the status', r.name === 'RobotExpressive.glb' &&
    (await page.textContent('#file-status')).includes('RobotExpressive.glb'), `${r.name}; ${await page.textContent('#file-status')}`);
  check('your file: every animation of the file is listed, the first playing', animations.length >= 10 && JSON.stringify(listed) === JSON.stringify(animations) && r.playing === animations[0],
    `${listed.length} listed of ${animations.length}: ${listed.join(', ')}; playing ${r.playing}`);
  const drawn = await shot();
  const before = await colouredPixels(page, empty), after = await colouredPixels(page, drawn);
  const [x0, y0, x1, y1] = after.box;
  check('your file: the Robot is drawn (its colours appear on the stage, in a tall box about the middle, none before)',
    r.drawn >= 1 && before.count < 0.001 * before.total && after.count > 0.02 * after.total && y1 - y0 > 0.4 * after.height && x0 < after.width / 2 && x1 > after.width / 2,
    `${r.drawn} drawn; coloured pixels ${before.count} before, ${after.count} of ${after.total} after, in x ${x0}–${x1}, y ${y0}–${y1} of ${after.width}×${after.height}`);
  if (process.env.E2E_SHOTS) writeFileSync(join(process.env.E2E_SHOTS, 'file-robot.png'), drawn);
  check('your file: the Robot at its own size (4.46 m, plausible: no units warning)', Math.abs(r.height - 4.46) < 0.1 && !r.warnings.some((w) => w.startsWith('units:')), `${r.height.toFixed(3)} m; ${r.units}`);
  const second = animations[1];
  await page.click(`#file-clips button:nth-child(2)`);
  r = await report();
  check('your file: clicking a clip plays it', r.playing === second, `${r.playing}, expected ${second}`);

  // 2. A capture dropped on the page while the Robot is shown.
  const bvh = readFileSync(asset('cmu_131_01_start_walk_stop.bvh'), 'utf8');
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'cmu_131_01_start_walk_stop.bvh', { type: 'text/plain' }));
    document.getElementById('stage').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, bvh);
  await until(page, () => window.__sandbox.file().loads >= 2, 60_000);
  r = await report();
  const map = await page.textContent('#file-map');
  check('your file: a .bvh dropped on the Robot plays on it through the humanoid map (the clip named after its file)',
    r.name === 'RobotExpressive.glb' && r.playing === 'cmu_131_01_start_walk_stop' && r.mapped >= 10 && /UpperLeg\.L ← \w+/.test(map),
    `${r.name} playing ${r.playing}, ${r.mapped} pairs; ${map.split('\n').slice(0, 3).join(' | ')}`);
  const walking = await shot();
  await page.waitForTimeout(600);
  const moved = await changedPixels(page, walking, await shot());
  if (process.env.E2E_SHOTS) writeFileSync(join(process.env.E2E_SHOTS, 'file-capture.png'), walking);
  check('your file: the retargeted capture moves the Robot', moved.changed > 500, `${moved.changed} pixels changed in 0.6 s`);

  // 3. Fox.glb: centimetres, so loadGltf's units warning and { height: 1.8 }.
  await page.setInputFiles('#file-input', asset('Fox.glb'));
  await until(page, () => window.__sandbox.file().loads >= 3, 60_000);
  r = await report();
  check('your file: Fox.glb (centimetres read as metres: 79 m) shows the units warning and is read with { height: 1.8 }',
    r.name === 'Fox.glb' && r.warnings.some((w) => /^units:.*too large/.test(w)) && Math.abs(r.height - 1.8) < 0.002 && r.units.includes('height: 1.8'),
    `${r.height.toFixed(4)} m; ${r.units}; ${r.warnings.find((w) => w.startsWith('units:'))}`);

  // 3b. The same Fox as a .gltf with its buffer in a .bin, picked together.
  const glb = readFileSync(asset('Fox.glb'));
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength;
  const bin = glb.subarray(binStart + 8, binStart + 8 + glb.readUInt32LE(binStart));
  json.buffers = [{ byteLength: json.buffers[0].byteLength, uri: 'Fox.bin' }];
  await page.setInputFiles('#file-input', [
    { name: 'Fox.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(JSON.stringify(json)) },
    { name: 'Fox.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bin) },
  ]);
  await until(page, () => window.__sandbox.file().loads >= 4, 60_000);
  const split = await report();
  check('your file: Fox.gltf with its Fox.bin picked together reads as the .glb does', split.name === 'Fox.gltf' && JSON.stringify(split.clips) === JSON.stringify(r.clips) &&
    Math.abs(split.height - 1.8) < 0.002 && split.drawn >= 1, `${split.name}: ${split.clips.join(', ')}; ${split.height.toFixed(4)} m; ${split.errors.join(' | ')}`);
  check('your file: no console errors, page errors or failed requests (picked and dropped files)', errors.length === 0, errors.join(' | '));
  await page.close();

  // 4. A served file by URL.
  const served = await openPage('?file=assets/RobotExpressive.glb');
  r = await served.page.evaluate(() => window.__sandbox.file());
  check('your file: ?file=assets/RobotExpressive.glb opens the served file with its clips', r.name === 'RobotExpressive.glb' && r.clips.length === animations.length && served.errors.length === 0,
    `${r.name}, ${r.clips.length} clips; ${served.errors.join(' | ')}`);
  await served.page.close();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { chromium } = await import('playwright-core');
  const { preview } = await import('vite');
  const server = await preview({ configFile: join(repo, 'sandbox', 'vite.config.ts'), logLevel: 'warn', preview: { port: Number(process.env.E2E_PORT ?? 4174), strictPort: false } });
  const base = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4174/';
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, timeout: 60_000, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  let failed = 0;
  const check = (name, ok, detail = '') => {
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
  };
  const openPage = async (query) => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 660 } });
    const errors = [];
    page.on('console', (message) => { if (message.type() === 'error') errors.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`));
    page.on('response', (response) => { if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`); });
    await page.goto(new URL(query, base).href);
    await page.waitForFunction(() => window.__sandbox?.ready || window.__sandbox?.error, null, { timeout: 60_000 });
    const error = await page.evaluate(() => window.__sandbox?.error);
    if (error) errors.push(`sandbox: ${error}`);
    return { page, errors };
  };
  const until = async (page, fn, timeout = 30_000) => {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await page.evaluate(fn);
      if (value || Date.now() > end) return value;
      await page.waitForTimeout(250);
    }
  };
  try {
    await checkUserFile({ openPage, check, until });
  } catch (error) {
    check('your file: the checks ran', false, String(error?.stack ?? error));
  } finally {
    await browser.close();
    await new Promise((resolve) => server.httpServer.close(resolve));
  }
  console.log(failed ? `${failed} failed` : 'all passed');
  process.exit(failed ? 1 : 0);
}
