/**
 * Crowd view: N characters wander a ground plane under an orthographic 3/4 camera.
 *
 * Each character is a bitanim entity with root motion. The game side (simulation.ts) steers it:
 * every few seconds it picks a heading and a target speed (or stops), and each frame hands the
 * speed to the character's state machines (machines.ts, `setParameter`): the locomotion
 * machine switches between idle and a 1D walk/run blend space over speed — by quintic or
 * spring inertialization (the "transitions" control) — and plays it at the rate that travels
 * that speed, and root motion carries the character that far; every tenth Robot also runs an
 * upper-body wave machine, additive through a mask, on a trigger now and then. Every
 * character's minimum-jerk follower chases the lure (the yellow point) and its head (with a
 * share of the neck) looks at its follower (`setLookAt`, solved by `aimSystem` in `step`).
 *
 * Motion LOD (the "motion LOD" control): each clip played is reduced offline to four levels
 * (`bakeLod`, 1 to 50 mm) and registered (`registerLodLevels`); every character gets distance
 * LOD around the view's centre (`setLod`, `setLodCamera`), animated every 1st to 4th frame by
 * level, and is drawn in its level's colour (read from the Lod component after `lodSystem`).
 *
 * The "bench" workload instead plays the benchmark's two clips blended 0.6 / 0.4 on every
 * character, standing on a grid — with the bench rig it is exactly `npm run bench`'s work.
 *
 * Threads (the "threads" control, `?threads=`): with more than one, the world is created with
 * `threads` and each frame runs `stepParallel`, started after pixi's render and awaited: until
 * it settles the page makes no call on the world (the ticker skips the game and the drawing,
 * and the controls, the overlay and `stats()` wait for it: `idle`).
 *
 * Parts: settings.ts (URL and tuning), simulation.ts (the world and the game's steering),
 * crowdBodies.ts (drawing, with bitanim/pixi), overlay.ts (figures), controls.ts (the panel), pipeline.ts (the
 * timed frame); this file sets up the scene, loads the character and runs the frame.
 */
import { setLodCamera } from 'bitanim';
import type { CrowdCamera } from 'bitanim/pixi';
import { Container, Graphics, UPDATE_PRIORITY, type Application, type Ticker } from 'pixi.js';
import { loadCharacter, type CharacterAsset, type CharacterKind } from '../assets';
import { attachCameraControls } from '../render/controls';
import { Ground } from '../render/ground';
import { addCrowdControls } from './controls';
import { CrowdBodies, drawMarkers } from './crowdBodies';
import { crowdStats, FrameClock, overlayText, type CrowdReport } from './overlay';
import { TimedPipeline } from './pipeline';
import { clampCount, readSettings, type CrowdSettings } from './settings';
import { capacityFor, CrowdSim } from './simulation';

export { MAX_CROWD, type BodyChoice, type CrowdSettings, type Workload } from './settings';

/** What the page exposes to the e2e test and the console (`window.__sandbox.crowd`). */
export interface CrowdHandle {
  settings: CrowdSettings;
  /** Live numbers of the overlay (a promise of them while a threaded frame runs). */
  stats(): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Shares of colour classes (as `classOf` numbers them, 0 … classes − 1) among the pixels of the character's base colour texture; [] without one. */
  textureClasses(classOf: (r: number, g: number, b: number) => number, classes: number): Promise<number[]>;
}

/** Starts the crowd view in `app`, its controls in `panel` and its figures in `overlay`, as the URL's `params` ask. */
export async function startCrowd(app: Application, panel: HTMLElement, overlay: HTMLElement, rendererInfo: string, params: URLSearchParams): Promise<CrowdHandle> {
  const settings = readSettings(params);
  const view = new CrowdView(app, settings, params);
  view.sim.asset = await loadCached(settings.character);
  app.ticker.add((ticker) => view.frame(ticker));
  // After pixi has rendered (its render runs at LOW priority): the CPU side of drawing.
  app.ticker.add(() => view.endRender(), undefined, UPDATE_PRIORITY.UTILITY);
  setInterval(() => void view.idle(() => (overlay.textContent = overlayText(view, rendererInfo))), 250);
  addCrowdControls(panel, settings, {
    setCount: (n) => void view.idle(() => view.setCount(n)),
    reload: () => void view.reload(),
    applyLookAt: () => void view.idle(() => view.sim.applyLookAt()),
    applyFootLock: () => void view.idle(() => view.sim.applyFootLock()),
    applyLod: () => void view.idle(() => view.sim.applyLod(view.camera.halfHeight)),
    setTiming: (mode) => {
      view.pipeline.mode = mode;
      view.pipeline.reset();
    },
    setThreads: (n) => {
      settings.threads = n;
      void view.reload();
    },
  });
  await view.reload();
  return { settings, stats: () => view.idle(() => crowdStats(view)), textureClasses: (classOf, classes) => textureClasses(view.sim.asset, classOf, classes) };
}

/** The e2e test's reference for "the texture's own colours on screen": the texture's pixels by colour class. */
async function textureClasses(asset: CharacterAsset, classOf: (r: number, g: number, b: number) => number, classes: number): Promise<number[]> {
  const texture = asset.mesh?.material?.baseColorTexture;
  if (!texture) return [];
  const bitmap = await createImageBitmap(new Blob([texture.image as Uint8Array<ArrayBuffer>], { type: texture.mimeType }));
  const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
  g.drawImage(bitmap, 0, 0);
  const d = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const counts = new Array<number>(classes).fill(0);
  for (let i = 0; i < d.length; i += 4) counts[classOf(d[i]!, d[i + 1]!, d[i + 2]!)]!++;
  return counts.map((c) => c / (d.length / 4));
}

const characters = new Map<CharacterKind, CharacterAsset>();

/** The character of `kind`, loaded once. */
async function loadCached(kind: CharacterKind): Promise<CharacterAsset> {
  let asset = characters.get(kind);
  if (!asset) characters.set(kind, (asset = await loadCharacter(kind)));
  return asset;
}

/** The scene (camera, ground, bodies, markers) around the simulation, and the frame that runs both. */
class CrowdView implements CrowdReport {
  readonly pipeline = new TimedPipeline();
  readonly clock = new FrameClock();
  readonly sim: CrowdSim;
  readonly bodies: CrowdBodies;
  private readonly ground = new Ground(400);
  private readonly markers = new Graphics();
  private renderStart = 0;
  /** Whether pixi's render this tick refreshed the crowd's draw data (not during a threaded frame). */
  private drawing = false;
  /** The threaded frame in flight (`stepParallel`), else null: no call on the world meanwhile. */
  private stepping: Promise<void> | null = null;
  /** Seconds of the threaded frame `endRender` starts, or −1: none. */
  private parallelDt = -1;
  /** When the last threaded frame started (performance.now()), 0: none yet. */
  private lastParallelStart = 0;

  constructor(private readonly app: Application, readonly settings: CrowdSettings, private readonly params: URLSearchParams) {
    const scene = new Container();
    app.stage.addChild(this.ground.mesh, scene, this.markers);
    this.pipeline.mode = settings.timing;
    attachCameraControls(app.canvas, () => this.camera);
    this.sim = new CrowdSim(settings);
    this.bodies = new CrowdBodies(scene, params.get('draw') === '0');
  }

  /** The view's camera: the crowd renderer's (orthographic 3/4 view). */
  get camera(): CrowdCamera {
    return this.bodies.camera;
  }

  /**
   * Runs `fn` now, or once the threaded frame in flight has settled (stepParallel: every other
   * call on the world would throw "a parallel step is running" until then).
   */
  idle<T>(fn: () => T): T | Promise<T> {
    return this.stepping === null ? fn() : this.stepping.then(() => this.idle(fn));
  }

  /** Loads the chosen character and starts over with `settings.count` characters (a new world on `settings.threads` threads). */
  async reload(): Promise<void> {
    const asset = await loadCached(this.settings.character);
    await this.idle(() => {
      this.sim.asset = asset;
      this.sim.capacity = 0;
      this.lastParallelStart = 0;
      this.rebuild(capacityFor(this.settings.count));
      this.setCount(this.settings.count);
    });
    const credits = document.getElementById('credits')!;
    credits.textContent = `${this.sim.asset.label}: ${this.sim.asset.credit}`;
  }

  /** Sets the crowd to `n` characters (a new world when it outgrows this one, or for a new bench grid) and frames it. */
  setCount(n: number): void {
    const { sim, settings } = this;
    n = clampCount(n);
    settings.count = n;
    if (n > sim.capacity) this.rebuild(capacityFor(n));
    sim.arena = sim.arenaRadius(n);
    if (sim.workload() === 'bench' && sim.count > 0) {
      // The grid depends on n: start over.
      this.rebuild(sim.capacity);
    }
    sim.resize(n);
    this.frameCrowd(n);
    sim.applyLod(this.camera.halfHeight);
    this.pipeline.reset();
  }

  /**
   * One frame: the clocks, the camera, the game and the runtime (unless paused), then the bodies
   * and markers. With threads, the runtime's frame is started after pixi's render (`endRender`)
   * and the bodies show the last one that settled; while one runs, the game and the drawing wait.
   */
  frame(ticker: Ticker): void {
    const { app, sim, settings, clock, bodies } = this;
    if (!bodies.crowd) return; // before the first world
    const camera = bodies.camera;
    clock.tick(performance.now());
    bodies.live = this.stepping === null;
    this.drawing = this.stepping === null;
    camera.width = app.renderer.width / app.renderer.resolution;
    camera.height = app.renderer.height / app.renderer.resolution;
    camera.update();
    if (this.stepping !== null) return; // the threaded frame still runs: pixi draws the last one again
    if (!settings.paused && sim.count >= 0) {
      const threaded = sim.world.threads > 1;
      const now = performance.now();
      // A threaded frame covers the time since the last one started (ticks may have been skipped).
      const dt = Math.min(threaded && this.lastParallelStart > 0 ? (now - this.lastParallelStart) / 1000 : ticker.deltaMS / 1000, 0.1);
      const t0 = performance.now();
      if (sim.workload() === 'locomotion') sim.update(dt);
      // LOD measures from the view's centre on the ground (an orthographic view has no eye distance).
      if (settings.lod) setLodCamera(sim.world, camera.targetX, 0, camera.targetZ);
      const t1 = performance.now();
      if (threaded) {
        this.parallelDt = dt;
        this.lastParallelStart = now;
      } else {
        this.pipeline.run(sim.world, dt);
        sim.endFrame(dt);
      }
      clock.ms.logic = t1 - t0;
    }
    const t2 = performance.now();
    this.ground.update(camera.viewProj, sim.workload() === 'locomotion' ? sim.arena : 0);
    bodies.fill(sim, settings);
    drawMarkers(this.markers, camera, sim, settings);
    this.renderStart = performance.now();
    clock.ms.upload = this.renderStart - t2;
  }

  /** After pixi's render: its CPU time; then the threaded frame, if `frame` asked for one (awaited: `stepping`). */
  endRender(): void {
    this.clock.ms.render = performance.now() - this.renderStart;
    if (this.drawing) this.bodies.recordFrame();
    this.drawing = false;
    if (this.parallelDt < 0) return;
    const dt = this.parallelDt;
    const sim = this.sim;
    this.parallelDt = -1;
    this.stepping = this.pipeline.runParallel(sim.world, dt, sim.count).then(
      () => {
        this.stepping = null;
        sim.endFrame(dt);
      },
      (error: unknown) => {
        this.stepping = null;
        console.error(error);
      },
    );
  }

  /** A new world of `capacity` characters, its bodies, and fresh timings. */
  private rebuild(capacity: number): void {
    this.sim.rebuild(capacity);
    this.bodies.rebuild(this.sim.world);
    this.pipeline.reset(this.sim.world.threads);
  }

  /**
   * Points the camera at the crowd's centre, zoomed to show `n` characters (`?zoom=` overrides):
   * the wanderers' whole arena up to a 16 m half height. The orthographic view shows the ground
   * circle as an ellipse `arena` wide and `arena · sin(pitch)` high; the stage's aspect decides which fits.
   */
  private frameCrowd(n: number): void {
    const { camera, sim } = this;
    const aspect = this.app.screen.width / Math.max(1, this.app.screen.height) || 1;
    const whole = 1.05 * sim.arena * Math.max(Math.sin(camera.pitch), 1 / aspect);
    camera.halfHeight = sim.workload() === 'bench' ? Math.max(4, Math.sqrt(n) * (sim.asset.kind === 'fox' ? 1.6 : 1.2) * 0.45) : Math.min(16, Math.max(5, whole));
    const zoom = Number(this.params.get('zoom'));
    if (zoom > 0) camera.halfHeight = zoom;
    camera.targetX = camera.targetZ = 0;
  }
}
