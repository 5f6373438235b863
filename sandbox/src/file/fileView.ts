/**
 * The "Your file" view (`?view=file`): the user's own character or capture, drawn by
 * bitanim/pixi. Files come from the panel's file picker, from a drop anywhere on the page
 * (several at once: a `.gltf` with its `.bin`, a character and its captures), or from
 * `?file=URL` (a file the server serves, e.g. `?file=assets/RobotExpressive.glb`).
 *
 * The panel lists what was read (./userFiles.ts): the file, its joints, its rest figure's height
 * and how its units became metres, every warning of the importer, and its clips, one button
 * each, the first playing. A capture (`.bvh`) dropped while a character is shown plays on that
 * character through the humanoid joint map (`bindSkeletons(capture, character, { joints:
 * 'humanoid', reference: 'canonical' })`, the map listed in the panel); alone, or when its
 * joints do not map, it plays on its own skeleton, drawn as capsules.
 *
 * The character's meshes go into one body per base colour texture (one draw each), every body
 * on its own entity posed alike. The camera frames the figure's skinned pose.
 *
 * `window.__sandbox.file()` reports the shown file, its clips, the clip playing and the drawn
 * count to the end-to-end test (e2e/userFile.mjs).
 */
import { bindSkeletons, createAnimationWorld, getSkinPalette, play, spawnCharacter, step, type AnimationWorld, type Binding, type Clip } from 'bitanim';
import { skinVertices } from 'bitanim/kernels';
import { createCharacterBody, createCrowdRenderer, CrowdCamera, type CharacterBody, type CrowdRenderer } from 'bitanim/pixi';
import { Container, type Application } from 'pixi.js';
import { capsuleGeometry } from '../assets';
import { attachCameraControls } from '../render/controls';
import { Ground } from '../render/ground';
import { heading, note } from '../ui';
import { ACCEPTED, readServedFile, readUserFiles, type UserFigure } from './userFiles';

/** What the view reports (`window.__sandbox.file()`). */
export interface FileReport {
  readonly name: string | null;
  readonly kind: string | null;
  readonly clips: string[];
  readonly playing: string | null;
  readonly height: number;
  readonly units: string;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
  /** The capture playing on the character through a joint map: its pair count, else 0. */
  readonly mapped: number;
  readonly drawn: number;
  readonly loads: number;
}

/** Starts the view; resolves once a `?file=` (if any) is shown. */
export async function startFileView(app: Application, panel: HTMLElement, overlay: HTMLElement, rendererInfo: string, params: URLSearchParams): Promise<Record<string, unknown>> {
  const ground = new Ground(50);
  const scene = new Container();
  app.stage.addChild(ground.mesh, scene);
  let crowd: CrowdRenderer | null = null;
  attachCameraControls(app.canvas, () => crowd!.camera, { orbit: true });

  // ---- panel -------------------------------------------------------------------------------
  heading(panel, 'Your file');
  note(panel, 'Drop a .glb, a .gltf with its .bin, or a .bvh capture anywhere on the page, or pick them here. ' +
    'A capture dropped on a character plays on it through the humanoid joint map.');
  const input = document.createElement('input');
  input.type = 'file';
  input.id = 'file-input';
  input.multiple = true;
  input.accept = ACCEPTED;
  panel.append(input);
  const status = Object.assign(document.createElement('p'), { id: 'file-status', className: 'note', textContent: 'No file yet.' });
  panel.append(status);
  heading(panel, 'Clips');
  const clipList = Object.assign(document.createElement('div'), { id: 'file-clips' });
  panel.append(clipList);
  heading(panel, 'Warnings');
  const warningList = Object.assign(document.createElement('ul'), { id: 'file-warnings' });
  panel.append(warningList);
  heading(panel, 'Joint map');
  const mapText = Object.assign(document.createElement('pre'), { id: 'file-map', textContent: '(drop a .bvh on a character)' });
  panel.append(mapText);

  // ---- state -------------------------------------------------------------------------------
  let character: UserFigure | null = null;
  let world: AnimationWorld | null = null;
  let eids: number[] = [];
  let playing: Clip | null = null;
  let binding: Binding | null = null;
  let errors: string[] = [];
  let loads = 0;
  const bodies: CharacterBody[] = [];

  /** Shows `figure` (a new world and renderer), playing its first clip. */
  function show(figure: UserFigure): void {
    crowd?.destroy();
    for (const body of bodies.splice(0)) body.geometry.destroy();
    const skeleton = figure.skeleton;
    // One body per base colour texture (createCharacterBody draws one texture), capsules for a capture.
    const groups = new Map<unknown, typeof figure.meshes[number][]>();
    for (const mesh of figure.meshes) {
      const key = mesh.material?.baseColorTexture?.image ?? null;
      groups.set(key, [...(groups.get(key) ?? []), mesh]);
    }
    if (groups.size === 0) bodies.push(createCharacterBody(capsuleGeometry(skeleton)));
    for (const meshes of groups.values()) bodies.push(createCharacterBody(meshes));
    world = createAnimationWorld({ maxEntities: 63, maxJoints: skeleton.jointCount });
    crowd = createCrowdRenderer(world, { fitCamera: false });
    Object.assign(crowd.camera, { pitch: 0.25, yaw: 0.6 });
    scene.addChild(crowd);
    eids = bodies.map((body) => {
      const eid = spawnCharacter(world!, skeleton);
      crowd!.setBody(eid, body);
      return eid;
    });
    binding = null;
    character = figure;
    playClip(figure.clips[0] ?? null);
    frame();
    listFigure(figure);
  }

  /** Plays `clip` (looping) on every entity of the figure, through `binding` when it is a capture's. */
  function playClip(clip: Clip | null, through: Binding | null = null): void {
    playing = clip;
    binding = through;
    if (!world) return;
    for (const eid of eids) {
      if (clip) play(world, eid, clip, { loop: true, ...(through ? { binding: through } : {}) });
    }
    step(world, 0);
    for (const button of clipList.querySelectorAll('button')) button.classList.toggle('active', button.textContent?.startsWith(`${clip?.name ?? ''} `) ?? false);
    renderStatus();
  }

  /** The panel's lists for the figure shown. */
  function listFigure(figure: UserFigure): void {
    clipList.replaceChildren(...figure.clips.map((clip) => {
      const button = Object.assign(document.createElement('button'), { className: 'file-clip', textContent: `${clip.name} (${clip.duration.toFixed(2)} s)` });
      button.addEventListener('click', () => playClip(clip));
      return button;
    }));
    if (figure.clips.length === 0) clipList.textContent = 'no clips';
    warningList.replaceChildren(...[...errors, ...figure.warnings].map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    if (errors.length + figure.warnings.length === 0) warningList.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'none' }));
    mapText.textContent = '(drop a .bvh on a character)';
    playClip(figure.clips[0] ?? null);
  }

  function renderStatus(): void {
    const figure = character;
    status.textContent = figure
      ? `${figure.name}: ${figure.skeleton.jointCount} joints, ${figure.meshes.length} meshes, ${figure.clips.length} clips; ` +
        `${figure.height.toFixed(2)} m tall (${figure.units})${playing ? `; playing ${playing.name}${binding ? ` (a capture, through the humanoid map)` : ''}` : ''}`
      : `No file shown${errors.length ? `: ${errors.join('; ')}` : '.'}`;
    document.getElementById('status')!.textContent = figure ? `file · ${figure.name} · ${figure.clips.length} clips` : 'file · none';
  }

  /** A capture on the character shown: through the humanoid map, else on its own. */
  function addCapture(capture: UserFigure): void {
    if (!character || character.kind === 'bvh' || !world) {
      show(capture);
      return;
    }
    try {
      const map = bindSkeletons(capture.skeleton, character.skeleton, { joints: 'humanoid', reference: 'canonical' });
      const clip = capture.clips[0]!;
      const button = Object.assign(document.createElement('button'), { className: 'file-clip', textContent: `${clip.name} (${clip.duration.toFixed(2)} s, ${capture.name})` });
      button.addEventListener('click', () => playClip(clip, map));
      clipList.append(button);
      playClip(clip, map);
      mapText.textContent = map.pairs.map((pair) => `${pair.target} ← ${pair.source}${pair.humanoid ? ` (${pair.humanoid})` : ''}`).join('\n');
      warningList.append(...capture.warnings.map((text) => Object.assign(document.createElement('li'), { textContent: `${capture.name}: ${text}` })));
    } catch (error) {
      errors.push(`${capture.name} on ${character.name}: ${error instanceof Error ? error.message : String(error)}; shown on its own skeleton`);
      show(capture);
    }
  }

  async function load(read: Promise<{ figures: UserFigure[]; errors: string[] }>): Promise<void> {
    status.textContent = 'reading…';
    const result = await read;
    errors = result.errors;
    // Characters first, then captures onto the last character.
    const ordered = [...result.figures.filter((f) => f.kind === 'gltf'), ...result.figures.filter((f) => f.kind === 'bvh')];
    for (const figure of ordered) {
      if (figure.kind === 'gltf') show(figure);
      else addCapture(figure);
    }
    if (ordered.length === 0) {
      warningList.replaceChildren(...errors.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
      renderStatus();
    }
    loads++;
    frameFigure();
  }

  input.addEventListener('change', () => void load(readUserFiles([...(input.files ?? [])])));
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length) void load(readUserFiles(files));
  });

  // ---- frame -------------------------------------------------------------------------------
  /** Frames the figure's current skinned pose (its first body's vertices, or its joints). */
  function frameFigure(): void {
    if (!world || !crowd || !character) return;
    const palette = getSkinPalette(world, eids[0]!);
    let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const mesh of character.meshes.length ? character.meshes : [capsuleGeometry(character.skeleton)]) {
      const out = new Float32Array(mesh.positions.length);
      skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, out);
      for (let i = 0; i < out.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3]!, out[i]!);
        hi[i % 3] = Math.max(hi[i % 3]!, out[i]!);
      }
    }
    if (!Number.isFinite(lo[1]!)) lo = hi = [0, 0, 0];
    const size = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!, 0.1);
    Object.assign(crowd.camera, { halfHeight: size * 0.65, targetX: (lo[0]! + hi[0]!) / 2, targetY: (lo[1]! + hi[1]!) / 2, targetZ: (lo[2]! + hi[2]!) / 2 });
  }

  /** Before any file: the ground under the camera a figure gets. */
  const emptyCamera = Object.assign(new CrowdCamera(), { pitch: 0.25, yaw: 0.6, halfHeight: 2, targetY: 1 });
  function frame(dt = 0): void {
    const camera = crowd?.camera ?? emptyCamera;
    camera.width = app.renderer.width / app.renderer.resolution;
    camera.height = app.renderer.height / app.renderer.resolution;
    camera.update();
    if (world) step(world, dt);
    ground.update(camera.viewProj, 0);
  }
  let lastOverlay = 0;
  app.ticker.add((ticker) => {
    frame(Math.min(ticker.deltaMS / 1000, 0.1));
    if (performance.now() - lastOverlay > 500) {
      lastOverlay = performance.now();
      overlay.textContent = [rendererInfo, crowd ? `bitanim/pixi: ${crowd.stats.drawCalls} draw calls, ${crowd.stats.drawn} drawn` : 'no file shown'].join('\n');
    }
  });

  const file = params.get('file');
  if (file) await load(readServedFile(file).then((figure) => ({ figures: [figure], errors: [] }), (error: unknown) => ({ figures: [], errors: [`${file}: ${error instanceof Error ? error.message : String(error)}`] })));
  renderStatus();
  document.getElementById('credits')!.textContent = 'Your file: drawn by bitanim/pixi; nothing leaves this page.';

  const report = (): FileReport => ({
    name: character?.name ?? null,
    kind: character?.kind ?? null,
    clips: [...clipList.querySelectorAll('button')].map((b) => b.textContent ?? ''),
    playing: playing?.name ?? null,
    height: character?.height ?? 0,
    units: character?.units ?? '',
    warnings: [...errors, ...(character?.warnings ?? [])],
    errors,
    mapped: binding?.pairs.length ?? 0,
    drawn: crowd?.stats.drawn ?? 0,
    loads,
  });
  return { file: report };
}
