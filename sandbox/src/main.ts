/**
 * The sandbox page: one pixi.js (v8, WebGL) application showing the crowd view, the
 * inspector (`?view=inspector`) or your own file (`?view=file`, `?file=URL`; a file dropped on
 * any view opens it there). Everything animated comes from bitanim's public entry.
 *
 * `?selftest=threads` runs sandbox/src/selftest/threads.ts (stepParallel against step) instead,
 * `?selftest=kernels` sandbox/src/selftest/kernels.ts (WebAssembly kernels against JavaScript).
 *
 * The WebAssembly kernels (docs/wasm.md) are fetched and compiled first, `await loadKernels()`:
 * worlds pick their kernels when created (`kernels: 'auto'` runs them where they loaded).
 *
 * `window.__sandbox` reports readiness, the renderer and the view's live numbers to the
 * end-to-end test (e2e/run.mjs) and to the console.
 */
import { loadKernels } from 'bitanim';
import { Application } from 'pixi.js';
import { startCrowd } from './crowd/crowdView';
import { startFileView } from './file/fileView';
import { startInspector } from './inspector/inspectorView';

declare global {
  interface Window {
    __sandbox?: Record<string, unknown>;
  }
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const kernelsLoaded = await loadKernels();
  if (params.get('selftest') === 'kernels') {
    // The WebAssembly kernels against the JavaScript ones in this browser (e2e/run.mjs); no view.
    window.__sandbox = { ready: false, view: 'selftest', crossOriginIsolated, kernelsLoaded };
    document.getElementById('status')!.textContent = 'selftest: kernels…';
    const { runKernelsSelftest } = await import('./selftest/kernels');
    const selftest = await runKernelsSelftest();
    document.getElementById('overlay')!.textContent = JSON.stringify(selftest, null, 2);
    document.getElementById('status')!.textContent = `selftest: kernels, ${selftest.equal} of ${selftest.checkpoints} checkpoints equal`;
    window.__sandbox = { ...window.__sandbox, selftest, ready: true };
    return;
  }
  if (params.get('selftest') === 'threads') {
    // stepParallel against step in this browser (e2e/run.mjs); no view.
    window.__sandbox = { ready: false, view: 'selftest', crossOriginIsolated, kernelsLoaded };
    document.getElementById('status')!.textContent = 'selftest: threads…';
    const { runThreadsSelftest } = await import('./selftest/threads');
    const selftest = await runThreadsSelftest();
    document.getElementById('overlay')!.textContent = JSON.stringify(selftest, null, 2);
    document.getElementById('status')!.textContent = `selftest: threads, ${selftest.equal} of ${selftest.checkpoints} checkpoints equal`;
    window.__sandbox = { ...window.__sandbox, selftest, ready: true };
    return;
  }
  const view = params.get('view') === 'inspector' ? 'inspector' : params.get('view') === 'file' || params.has('file') ? 'file' : 'crowd';
  document.getElementById(`tab-${view}`)?.classList.add('active');
  document.body.classList.add(`view-${view}`);
  const status = document.getElementById('status')!;
  const stage = document.getElementById('stage')!;
  const panel = document.getElementById('panel')!;
  const overlay = document.getElementById('overlay')!;
  window.__sandbox = { ready: false, view, kernelsLoaded };

  const app = new Application();
  await app.init({
    resizeTo: stage,
    background: '#1b1f26',
    antialias: false,
    preference: 'webgl',
    resolution: 1,
    autoDensity: false,
  });
  stage.prepend(app.canvas);
  // pixi follows window resizes; the stage also changes size when the panel or credits do.
  new ResizeObserver(() => app.resize()).observe(stage);
  const rendererInfo = describeRenderer(app);

  const handle = view === 'crowd'
    ? await startCrowd(app, panel, overlay, rendererInfo, params)
    : view === 'file'
      ? await startFileView(app, panel, overlay, rendererInfo, params)
      : await startInspector(app, panel, overlay, rendererInfo, params);
  if (view !== 'file') status.textContent = `${view} · ${app.renderer.name}`;
  // A file dropped on another view: the file view takes it (its own handler reads it there).
  if (view !== 'file') {
    document.addEventListener('dragover', (event) => event.preventDefault());
    document.addEventListener('drop', (event) => {
      event.preventDefault();
      status.textContent = 'drop your file on the "Your file" view';
      location.search = '?view=file';
    });
  }
  window.__sandbox = { ...window.__sandbox, ...handle, ready: true, rendererName: app.renderer.name, rendererInfo };
}

function describeRenderer(app: Application): string {
  const renderer = app.renderer as unknown as { name: string; gl?: WebGL2RenderingContext };
  if (!renderer.gl) return `renderer: ${renderer.name}`;
  const gl = renderer.gl;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
  return `renderer: ${renderer.name} (${gl instanceof WebGL2RenderingContext ? 'WebGL 2' : 'WebGL 1'}), ${name}`;
}

main().catch((error: unknown) => {
  console.error(error);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  window.__sandbox = { ...window.__sandbox, error: message };
  const status = document.getElementById('status');
  if (status) status.textContent = `error: ${message}`;
});
