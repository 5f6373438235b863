// End-to-end test of the sandbox: `npm run test:e2e` (builds sandbox/dist first), part of .ci/run.
//
// playwright-core drives Debian's Chromium (/usr/bin/chromium; never `npx playwright install`)
// in headless mode with software WebGL (SwiftShader) against `vite preview` of the built
// sandbox, and checks:
//   1. the crowd view shows characters: its canvas is not blank, shows character colours, and
//      two frames differ (they move);
//   2. a control changes the character count (the "characters" box), and the view follows;
//   3. the crowd runs 5,000 characters (its overlay's figures are printed);
//   4. the inspector's clip picker changes the pose (the pose numbers and the pixels);
//   5. no console errors, page errors or failed requests anywhere.
// Screenshots go to the folder given as the first argument (default docs/screenshots/): the
// README shows crowd.png and inspector.png from there.
//
// Environment: CHROMIUM (default /usr/bin/chromium), E2E_PORT (default 4173).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const repo = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.argv[2] ?? join(repo, 'docs', 'screenshots');
mkdirSync(outDir, { recursive: true });

const server = await preview({
  configFile: join(repo, 'sandbox', 'vite.config.ts'),
  logLevel: 'warn',
  preview: { port: Number(process.env.E2E_PORT ?? 4173), strictPort: false },
});
const base = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  timeout: 60_000,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

let passed = 0;
let failed = 0;
const problems = [];

function check(name, ok, detail = '') {
  if (ok) passed++;
  else {
    failed++;
    problems.push(`${name}${detail ? `: ${detail}` : ''}`);
  }
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

/** A page that records console errors, page errors and failed requests. */
async function openPage(query) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 660 } });
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(new URL(query, base).href);
  await page.waitForFunction(() => window.__sandbox?.ready || window.__sandbox?.error, null, { timeout: 60_000 });
  const error = await page.evaluate(() => window.__sandbox?.error);
  if (error) errors.push(`sandbox: ${error}`);
  return { page, errors };
}

/** PNG of the view's canvas. */
const canvasShot = (page, path) => page.locator('#stage canvas').screenshot(path ? { path } : {});

/**
 * Pixel statistics of a PNG (decoded in the page): how many pixels differ from the most common
 * colour (the background), how many are "character" colours (orange fox or blue-grey
 * capsules: saturated, not the grey ground), and, given a second PNG, how many pixels differ.
 */
async function pixels(page, png, other) {
  return page.evaluate(async ([a, b]) => {
    const decode = async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d');
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    };
    const da = await decode(a);
    const counts = new Map();
    let coloured = 0;
    for (let i = 0; i < da.length; i += 4) {
      const key = (da[i] << 16) | (da[i + 1] << 8) | da[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const max = Math.max(da[i], da[i + 1], da[i + 2]), min = Math.min(da[i], da[i + 1], da[i + 2]);
      if (max - min > 60) coloured++;
    }
    const total = da.length / 4;
    const background = Math.max(...counts.values());
    let changed = -1;
    if (b) {
      const db = await decode(b);
      changed = 0;
      for (let i = 0; i < da.length; i += 4) {
        if (Math.abs(da[i] - db[i]) + Math.abs(da[i + 1] - db[i + 1]) + Math.abs(da[i + 2] - db[i + 2]) > 30) changed++;
      }
    }
    return { total, colours: counts.size, nonBackground: total - background, coloured, changed };
  }, [png.toString('base64'), other ? other.toString('base64') : null]);
}

/**
 * Writes a README picture: the PNG scaled to `width` and its colours reduced to 16 levels per
 * channel (re-encoded in the page), which keeps it small.
 */
async function saveSmall(page, png, path, width = 800) {
  const b64 = await page.evaluate(async ([source, targetWidth]) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${source}`)).blob());
    const scale = Math.min(1, targetWidth / bitmap.width);
    const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
    const g = canvas.getContext('2d');
    g.imageSmoothingQuality = 'high';
    g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const image = g.getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 0; i < image.data.length; i += 4) for (let c = 0; c < 3; c++) image.data[i + c] = image.data[i + c] & 0xf0;
    g.putImageData(image, 0, 0);
    const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, [png.toString('base64'), width]);
  writeFileSync(path, Buffer.from(b64, 'base64'));
}

try {
  // ---- crowd --------------------------------------------------------------------------------
  {
    const { page, errors } = await openPage('?view=crowd&count=500');
    await page.waitForTimeout(1500);
    await saveSmall(page, await page.screenshot(), join(outDir, 'crowd.png'));
    const first = await canvasShot(page);
    await page.waitForTimeout(700);
    const second = await canvasShot(page);
    const a = await pixels(page, first, second);
    check('crowd view is not blank', a.nonBackground > a.total * 0.2 && a.colours > 50, `${a.colours} colours, ${a.nonBackground} of ${a.total} pixels off the background`);
    check('crowd view shows characters', a.coloured > 2000, `${a.coloured} character-coloured pixels`);
    check('crowd view moves between two frames', a.changed > 500, `${a.changed} pixels changed in 0.7 s`);

    // The characters control: 500 → 40.
    const before = await page.evaluate(() => window.__sandbox.stats());
    await page.fill('#count', '40');
    await page.press('#count', 'Enter');
    await page.waitForFunction(() => window.__sandbox.stats().count === 40, null, { timeout: 10_000 }).catch(() => {});
    await page.waitForTimeout(800);
    const after = await page.evaluate(() => window.__sandbox.stats());
    const few = await pixels(page, await canvasShot(page));
    check('the characters control changes the count', before.count === 500 && after.count === 40, `${before.count} → ${after.count}`);
    check('fewer characters on screen after it', few.coloured < a.coloured * 0.5, `${a.coloured} → ${few.coloured} character-coloured pixels`);
    check('crowd page: no console errors', errors.length === 0, errors.slice(0, 5).join(' | '));
    await page.close();
  }
  // ---- crowd at 5,000 -----------------------------------------------------------------------
  {
    const { page, errors } = await openPage('?view=crowd&count=5000');
    await page.waitForTimeout(6000);
    const stats = await page.evaluate(() => window.__sandbox.stats());
    const shot = await canvasShot(page);
    await saveSmall(page, await page.screenshot(), join(outDir, 'crowd-5000.png'));
    const p = await pixels(page, shot);
    const systems = Object.entries(stats.systems).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(' · ');
    console.log(`     5,000 characters: ${stats.fps} fps; runtime ${stats.runtimeMs.toFixed(2)} ms/frame (${stats.nsPerJoint.toFixed(0)} ns/joint): ${systems}`);
    check('crowd runs 5,000 characters', stats.count === 5000 && stats.runtimeMs > 0 && p.coloured > 2000, `${stats.count} characters, ${p.coloured} character-coloured pixels`);
    check('crowd 5,000: no console errors', errors.length === 0, errors.slice(0, 5).join(' | '));
    await page.close();
  }
  // ---- inspector ----------------------------------------------------------------------------
  {
    const { page, errors } = await openPage('?view=inspector&paused=1');
    await page.waitForTimeout(800);
    const state = await page.evaluate(() => window.__sandbox.inspector.state());
    const pose0 = await page.evaluate(() => window.__sandbox.inspector.pose());
    const shot0 = await canvasShot(page);
    const next = state.clips.find((name) => name !== state.clipA);
    await page.selectOption('#clipA', next);
    await page.waitForTimeout(800);
    const pose1 = await page.evaluate(() => window.__sandbox.inspector.pose());
    const shot1 = await canvasShot(page);
    const difference = Math.max(...pose0.map((v, i) => Math.abs(v - pose1[i])));
    const p = await pixels(page, shot0, shot1);
    check('inspector: the clip picker changes the pose', difference > 1e-3, `${state.clipA} → ${next}: max pose difference ${difference.toFixed(4)}`);
    check('inspector: and the picture', p.changed > 500, `${p.changed} pixels changed`);
    // The README picture: playing, blending, with its plots.
    await page.selectOption('#clipA', state.clipA);
    await page.click('#play');
    await page.waitForTimeout(2500);
    await saveSmall(page, await page.screenshot(), join(outDir, 'inspector.png'));
    check('inspector: no console errors', errors.length === 0, errors.slice(0, 5).join(' | '));
    await page.close();
  }
} catch (error) {
  failed++;
  problems.push(String(error?.stack ?? error));
  console.log(`FAIL ${error?.stack ?? error}`);
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}

console.log(`screenshots in ${outDir}`);
if (problems.length) console.log(problems.map((p) => `  - ${p}`).join('\n'));
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
