/**
 * Inspector view: one character, its clips and the curves behind them.
 *
 * - Playback: play, pause, scrub the phase, change the rate; pick clip A and, to blend, clip
 *   B with its weight (phase-synchronized or not).
 * - Transitions: the same switch from A to B done as a cross-fade and as quintic and spring
 *   inertialization, one joint channel plotted over time (each run in a world of its own).
 * - Follower: the character's minimum-jerk follower against the target it chases (a point
 *   that jumps every 1.2 s, or the pointer over the view), drawn in the view and plotted.
 * - Look-at: the head (the neck taking a share) looks at the follower (`setLookAt`).
 * - Motion LOD: clip A's original samples of the channel against the clip reduced by
 *   `reduceClip` at the chosen tolerance: its curve as the runtime samples it, the keys it
 *   stores (`clip.reduced`) and what the reduction kept and cost (`clip.stats`).
 *
 * - Expressions: the character's curves (the Robot's morph targets) from its clips or sliders,
 *   and one curve through a switch (./expressionPanel.ts).
 * - Feet: clip A's foot heights and contacts (`detectFootContacts`), its skate
 *   (`measureFootSkate`), and foot locking on the character walked faster than its clip
 *   (`setFootLock`; ./feetPanel.ts).
 *
 * The character is drawn with bitanim/pixi (a crowd renderer of one): the Fox's textured mesh,
 * the whole Robot (its 19 meshes in one body, morph targets on the GPU), or capsules per bone.
 */
import {
  clearLookAt,
  createAnimationWorld,
  getFollowPosition,
  getLocalPose,
  getModelMatrices,
  play,
  setFollower,
  setFollowTarget,
  setLookAt,
  spawnCharacter,
  step,
  stop,
  transition,
  type AnimationWorld,
  type Clip,
  type Skeleton,
  type TransitionMode,
} from 'bitanim';
import { expandFrames, readTrack, reduceClip, type ReducedTracks } from 'bitanim/lod';
import { createCrowdRenderer, type CrowdRenderer } from 'bitanim/pixi';
import { Application, Container, Graphics } from 'pixi.js';
import { bodiesOf, loadCharacter, type CharacterAsset } from '../assets';
import { copyView, unproject } from '../render/camera';
import { attachCameraControls } from '../render/controls';
import { Ground } from '../render/ground';
import { button, checkbox, heading, note, select, setOptions, slider } from '../ui';
import { MachinePanel } from './machinePanel';
import { drawPlot, legend, type Series } from './plot';
import { addExpressionClips, expressionPanel } from './expressionPanel';
import { feetPanel } from './feetPanel';

type Channel = 'auto' | 'angle' | 'qx' | 'qy' | 'qz' | 'qw' | 'tx' | 'ty' | 'tz';
const CHANNELS: readonly Channel[] = ['auto', 'angle', 'qx', 'qy', 'qz', 'qw', 'tx', 'ty', 'tz'];
const CHANNEL_OFFSET: Record<Exclude<Channel, 'auto' | 'angle'>, number> = { tx: 0, ty: 1, tz: 2, qx: 3, qy: 4, qz: 5, qw: 6 };

/** Value of a channel of joint `joint` in a pose (J×10 floats). 'angle': degrees from the rest rotation. */
function channelValue(pose: ArrayLike<number>, joint: number, channel: Exclude<Channel, 'auto'>, rest: ArrayLike<number>, offset = 0): number {
  const o = offset + joint * 10;
  if (channel !== 'angle') return pose[o + CHANNEL_OFFSET[channel]]!;
  // q · rest⁻¹: its angle.
  const x = pose[o + 3]!, y = pose[o + 4]!, z = pose[o + 5]!, w = pose[o + 6]!;
  const r = joint * 10;
  const rx = -rest[r + 3]!, ry = -rest[r + 4]!, rz = -rest[r + 5]!, rw = rest[r + 6]!;
  const dw = w * rw - x * rx - y * ry - z * rz;
  return (2 * Math.acos(Math.min(1, Math.abs(dw))) * 180) / Math.PI;
}

/** The quaternion or translation channel of `joint` that varies most over `clip`. */
function liveliestChannel(clip: Clip, joint: number): Exclude<Channel, 'auto'> {
  let best: Exclude<Channel, 'auto'> = 'qx', bestRange = -1;
  const J = clip.skeleton.jointCount;
  const frames = expandFrames(clip); // a reduced clip holds no frames: its curves at the frame times
  for (const channel of ['qx', 'qy', 'qz', 'qw'] as const) {
    let lo = Infinity, hi = -Infinity;
    for (let f = 0; f < clip.frameCount; f++) {
      const v = frames[(f * J + joint) * 10 + CHANNEL_OFFSET[channel]]!;
      lo = Math.min(lo, v); hi = Math.max(hi, v);
    }
    if (hi - lo > bestRange) { bestRange = hi - lo; best = channel; }
  }
  return best;
}

const DT = 1 / 60;
const SWITCH_AT = 0.5;
const ORIGIN = { x: 0, z: 0 } as const;

interface SwitchRun { mode: TransitionMode | 'A' | 'B'; label: string; color: string; dash?: number[]; width?: number; alpha?: number }
const SWITCH_RUNS: readonly SwitchRun[] = [
  { mode: 'A', label: 'A alone', color: '#8a94a3', dash: [2, 3], width: 1, alpha: 0.8 },
  { mode: 'B', label: 'B alone', color: '#d0d6de', dash: [6, 3], width: 1, alpha: 0.8 },
  { mode: 'crossfade', label: 'cross-fade', color: '#5fb8ff' },
  { mode: 'inertialize', label: 'quintic inertialization', color: '#ffb347', width: 2 },
  { mode: 'spring', label: 'spring inertialization', color: '#d68bff' },
];

/** The channel over time through a switch from A to B at SWITCH_AT, for each of SWITCH_RUNS. */
function simulateSwitch(skeleton: Skeleton, a: Clip, b: Clip, duration: number, joint: number, channel: Exclude<Channel, 'auto'>): { t: number[]; values: number[][] } {
  const total = SWITCH_AT + Math.max(1.2, duration * 2.5);
  const frames = Math.round(total / DT);
  const t = Array.from({ length: frames + 1 }, (_, f) => f * DT);
  const values = SWITCH_RUNS.map((run) => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: skeleton.jointCount, maxEvents: 16 });
    const eid = spawnCharacter(world, skeleton);
    if (run.mode === 'B') play(world, eid, b, { time: b.duration - (SWITCH_AT % b.duration) });
    else play(world, eid, a);
    step(world, 0);
    const out: number[] = [channelValue(getLocalPose(world, eid), joint, channel, skeleton.rest)];
    for (let f = 1; f <= frames; f++) {
      if (f === Math.round(SWITCH_AT / DT) && run.mode !== 'A' && run.mode !== 'B') transition(world, eid, b, { duration, mode: run.mode });
      step(world, DT);
      out.push(channelValue(getLocalPose(world, eid), joint, channel, skeleton.rest));
    }
    return out;
  });
  return { t, values };
}


/**
 * The key times a reduced clip stores for `channel` of `joint`: the records of the joint's
 * translation or rotation track (the union of its channels' keys; see `ReducedTracks`), or
 * just the ends when that track is constant.
 */
function reducedKeyTimes(tracks: ReducedTracks, joint: number, channel: Exclude<Channel, 'auto'>): number[] {
  const rotation = channel === 'angle' || channel[0] === 'q';
  const track = readTrack(tracks, joint, rotation ? 1 : 0); // 32-bit or 16-bit records alike
  return track === null ? [0, tracks.duration] : Array.from(track.times);
}

/** Samples `clip` (possibly a reduced one) at times `times`, returning the channel. */
function sampleChannel(skeleton: Skeleton, clip: Clip, times: readonly number[], joint: number, channel: Exclude<Channel, 'auto'>): number[] {
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: skeleton.jointCount, maxEvents: 16 });
  const eid = spawnCharacter(world, skeleton);
  return times.map((time) => {
    play(world, eid, clip, { time, speed: 0, loop: false });
    step(world, 0);
    return channelValue(getLocalPose(world, eid), joint, channel, skeleton.rest);
  });
}

export async function startInspector(app: Application, panel: HTMLElement, overlay: HTMLElement, rendererInfo: string, params: URLSearchParams): Promise<Record<string, unknown>> {
  const ground = new Ground(50);
  const scene = new Container();
  const markers = new Graphics();
  app.stage.addChild(ground.mesh, scene, markers);
  // The character's renderer: a new one per world (loadAsset), the view carried over.
  let crowd: CrowdRenderer | undefined;
  attachCameraControls(app.canvas, () => crowd!.camera, { orbit: true });

  const state = {
    character: (params.get('character') === 'robot' ? 'robot' : 'fox') as 'fox' | 'robot',
    clipA: params.get('clip') ?? '',
    clipB: 'none',
    weight: 0.5,
    sync: true,
    playing: params.get('paused') !== '1',
    speed: 1,
    joint: -1,
    channel: 'auto' as Channel,
    duration: 0.4,
    tolerance: 0.005,
    body: 'auto' as 'auto' | 'mesh' | 'capsules',
    lookAt: params.get('lookat') !== '0',
  };

  const machines = new MachinePanel(params.get('machines') === '1');
  let feet: ReturnType<typeof feetPanel> | undefined;
  let asset!: CharacterAsset;
  let world!: AnimationWorld;
  let eid = 0;
  let clipNames: string[] = [];

  // Follower: the target jumps every 1.2 s around the head (or follows the pointer).
  const follow = { t: [] as number[], target: [] as number[][], position: [] as number[][], nextJump: 0, x: 0, y: 0, z: 0, clock: 0, pointerAt: -10 };

  const clips = (): ReadonlyMap<string, Clip> => asset.clips;
  const clipA = (): Clip => clips().get(state.clipA)!;
  const clipB = (): Clip | undefined => (state.clipB === 'none' ? undefined : clips().get(state.clipB));
  const channelOf = (): Exclude<Channel, 'auto'> => (state.channel === 'auto' ? liveliestChannel(clipA(), state.joint) : state.channel);

  async function loadAsset(): Promise<void> {
    asset = await loadCharacter(state.character);
    addExpressionClips(asset);
    clipNames = [...asset.clips.keys()];
    if (!asset.clips.has(state.clipA)) state.clipA = state.character === 'fox' ? 'Walk' : 'Walking';
    if (!asset.clips.has(state.clipA)) state.clipA = clipNames[0]!;
    state.clipB = state.character === 'fox' ? 'Run' : 'Running';
    if (!asset.clips.has(state.clipB) || state.clipB === state.clipA) state.clipB = clipNames.find((n) => n !== state.clipA) ?? 'none';
    const preferred = state.character === 'fox' ? 'b_LeftLeg01_015' : 'UpperLeg.L';
    state.joint = Math.max(0, asset.skeleton.names.indexOf(preferred));
    world = createAnimationWorld({ maxEntities: 63, maxJoints: asset.skeleton.jointCount, maxEvents: 64 });
    eid = spawnCharacter(world, asset.skeleton);
    const old = crowd;
    crowd = createCrowdRenderer(world, { fitCamera: false });
    const camera = crowd.camera;
    if (old) {
      copyView(camera, old.camera);
      old.destroy();
    } else {
      camera.pitch = 0.32;
      camera.yaw = 0.9;
    }
    scene.addChild(crowd);
    camera.halfHeight = asset.size * 0.62;
    camera.targetY = asset.height * 0.45;
    camera.targetX = camera.targetZ = 0;
    applyPlayback(0);
    const head = headPosition();
    setFollower(world, eid, { x: head[0], y: head[1], z: head[2] });
    applyLookAt();
    follow.t.length = follow.target.length = follow.position.length = 0;
    follow.nextJump = 0;
    document.getElementById('credits')!.textContent = `${asset.label}: ${asset.credit}`;
    machines.attach(world, eid, asset);
  }

  /** Turns the head (the neck taking a share) toward the follower, or stops it. */
  function applyLookAt(): void {
    if (asset.headJoint < 0) return;
    if (!state.lookAt) {
      clearLookAt(world, eid);
      return;
    }
    setLookAt(world, eid, {
      joint: asset.headJoint,
      ...(asset.neckJoint >= 0 ? { neck: asset.neckJoint, neckFraction: 0.35 } : {}),
      yawLimit: 1.3,
      pitchLimit: 0.7,
    });
  }

  /** The head's world position (the model's, moved by the walk of the feet panel). */
  function headPosition(): [number, number, number] {
    const joint = asset.headJoint >= 0 ? asset.headJoint : asset.skeleton.jointCount - 1;
    const m = getModelMatrices(world, eid);
    const root = rootOffset();
    return [m[joint * 12 + 9]! + root.x, m[joint * 12 + 10]!, m[joint * 12 + 11]! + root.z];
  }

  /** Where the character stands: the origin, or where the feet panel walked it (it faces +Z, unturned). */
  function rootOffset(): { x: number; z: number } {
    return feet?.walking() ? feet.root() : ORIGIN;
  }

  /** Current phase of clip A, in [0, 1). */
  function phase(): number {
    const a = clipA();
    const time = world.components.Layers.time[eid * world.maxLayers]!;
    return a.duration > 0 ? time / a.duration : 0;
  }

  /** (Re)starts the layers for the current choices at `at` (phase of A), then evaluates the pose. */
  function applyPlayback(at: number): void {
    if (feet?.walking()) {
      feet.restart(); // the feet panel plays clip A in place and moves the character
      return;
    }
    const a = clipA(), b = clipB();
    const blend = b !== undefined && state.weight > 0;
    const sync = blend && state.sync ? { syncGroup: 0 } : {};
    play(world, eid, a, { layer: 0, weight: blend ? 1 - state.weight : 1, speed: state.speed, time: at * a.duration, loop: true, ...sync });
    if (blend) play(world, eid, b, { layer: 1, weight: state.weight, speed: state.speed, time: at * b.duration, loop: true, ...sync });
    else stop(world, eid, 1);
    step(world, 0);
  }

  // ---- plots -----------------------------------------------------------------------------

  const plotCanvas = (id: string): HTMLCanvasElement => Object.assign(document.createElement('canvas'), { id, className: 'plot' });
  const transitionCanvas = plotCanvas('plot-transition');
  const followCanvas = plotCanvas('plot-follower');
  const lodCanvas = plotCanvas('plot-lod');
  const transitionLegend = document.createElement('div');
  const followLegend = document.createElement('div');
  const lodLegend = document.createElement('div');
  let lodNote!: HTMLElement;

  function plotTransition(): void {
    const a = clipA();
    const b = clipB() ?? clips().get(clipNames.find((n) => n !== state.clipA)!)!;
    const channel = channelOf();
    const { t, values } = simulateSwitch(asset.skeleton, a, b, state.duration, state.joint, channel);
    const series: Series[] = SWITCH_RUNS.map((run, k) => ({ label: run.label, color: run.color, x: t, y: values[k]!, dash: run.dash, width: run.width, alpha: run.alpha }));
    drawPlot(transitionCanvas, series, {
      title: `${asset.skeleton.names[state.joint]} ${channel}: ${a.name} → ${b.name} in ${state.duration.toFixed(2)} s`,
      markers: [{ x: SWITCH_AT, label: 'switch' }, { x: SWITCH_AT + state.duration, label: 'end' }],
    });
    legend(transitionLegend, SWITCH_RUNS.map((run) => ({ label: run.label, color: run.color, dash: run.dash !== undefined })));
  }

  function plotFollower(): void {
    const t = follow.t;
    const now = t.length ? t[t.length - 1]! : 0;
    const series: Series[] = [
      { label: 'target x', color: '#ff6b6b', x: t, y: follow.target.map((p) => p[0]!), steps: true, width: 1, dash: [4, 3] },
      { label: 'follower x', color: '#ff6b6b', x: t, y: follow.position.map((p) => p[0]!), width: 2 },
      { label: 'target y', color: '#6bd0ff', x: t, y: follow.target.map((p) => p[1]!), steps: true, width: 1, dash: [4, 3] },
      { label: 'follower y', color: '#6bd0ff', x: t, y: follow.position.map((p) => p[1]!), width: 2 },
    ];
    drawPlot(followCanvas, series, { title: 'follower (solid) against its target (dashed), metres', xRange: [Math.max(0, now - 5), Math.max(5, now)] });
  }

  function plotLod(): void {
    const a = clipA();
    const channel = channelOf();
    const J = a.skeleton.jointCount;
    const times = Array.from({ length: a.frameCount }, (_, f) => f / a.frameRate);
    const frames = expandFrames(a);
    const original = times.map((_, f) => channelValue(frames, state.joint, channel, asset.skeleton.rest, f * J * 10));
    const series: Series[] = [{ label: 'original samples', color: '#d0d6de', x: times, y: original, dots: true, line: false }];
    let message: string;
    try {
      const reduced = reduceClip(a, { tolerance: state.tolerance });
      // The reduced clip as the runtime samples it (its cubic curves), 4 points per frame.
      const dense = Array.from({ length: a.frameCount * 4 - 3 }, (_, k) => Math.min(a.duration, k / (a.frameRate * 4)));
      series.push({ label: 'reduced (runtime sampler)', color: '#ffb347', x: dense, y: sampleChannel(asset.skeleton, reduced, dense, state.joint, channel), width: 2 });
      if (reduced.reduced) {
        const keys = reducedKeyTimes(reduced.reduced, state.joint, channel);
        series.push({ label: `stored keys (${keys.length})`, color: '#ff4d6d', x: keys, y: sampleChannel(asset.skeleton, reduced, keys, state.joint, channel), dots: true, dotRadius: 3.5, line: false });
      }
      const stats = reduced.stats;
      message = stats
        ? `reduceClip at ${(state.tolerance * 1000).toFixed(1)} mm: ${stats.keysAfter.toLocaleString('en-US')} of ${stats.keysBefore.toLocaleString('en-US')} channel keys kept (${((100 * stats.keysAfter) / stats.keysBefore).toFixed(1)} %), model-space error max ${(stats.maxError * 1000).toFixed(2)} mm, mean ${(stats.meanError * 1000).toFixed(2)} mm, ${stats.bytes.toLocaleString('en-US')} bytes (frames: ${stats.sourceBytes.toLocaleString('en-US')})`
        : `reduceClip at ${(state.tolerance * 1000).toFixed(1)} mm`;
    } catch (error) {
      message = `reduceClip refused: ${(error as Error).message}`;
    }
    lodNote.textContent = message;
    drawPlot(lodCanvas, series, { title: `${a.name}: ${asset.skeleton.names[state.joint]} ${channel}, samples vs LOD` });
    legend(lodLegend, series.map((s) => ({ label: s.label, color: s.color })));
  }

  const replot = (): void => {
    plotTransition();
    plotLod();
  };

  // ---- frame -----------------------------------------------------------------------------

  const p = [0, 0];
  let lastOverlay = 0;
  let ready = false;
  app.ticker.add((ticker) => {
    if (!ready) return;
    const dt = Math.min(ticker.deltaMS / 1000, 0.1);
    const camera = crowd!.camera;
    camera.width = app.renderer.width / app.renderer.resolution;
    camera.height = app.renderer.height / app.renderer.resolution;
    camera.update();
    if (state.playing) {
      // The target: a new point near the head every 1.2 s, unless the pointer leads it.
      follow.clock += dt;
      if (follow.clock - follow.pointerAt > 1 && follow.clock >= follow.nextJump) {
        const h = asset.height;
        const head = headPosition();
        follow.x = head[0] + (Math.random() - 0.5) * h * 0.8;
        follow.y = head[1] + (Math.random() - 0.3) * h * 0.4;
        follow.z = head[2] + h * (0.3 + Math.random() * 0.4);
        follow.nextJump = follow.clock + 1.2;
      }
      setFollowTarget(world, eid, follow.x, follow.y, follow.z);
      if (feet?.walking()) feet.advance(dt);
      else step(world, dt);
      const f = getFollowPosition(world, eid);
      follow.t.push(follow.clock);
      follow.target.push([follow.x, follow.y, follow.z]);
      follow.position.push([f.x, f.y, f.z]);
      while (follow.t.length > 0 && follow.t[0]! < follow.clock - 5) {
        follow.t.shift(); follow.target.shift(); follow.position.shift();
      }
      scrub.set(Number(phase().toFixed(3)));
    }
    machines.update();
    // Draw: the textured mesh untinted, capsules in the character's colour (the crowd renderer reads the pose when pixi renders).
    ground.update(camera.viewProj, 0);
    const bodies = bodiesOf(asset);
    const body = bodies.mesh !== null && state.body !== 'capsules' ? bodies.mesh : bodies.capsules;
    const tint = body === bodies.mesh ? 0xffffff : asset.kind === 'robot' ? 0x99a8cc : 0xeb8c40;
    if (crowd!.bodyOf(eid) !== body) crowd!.setBody(eid, body, { tint });
    markers.clear();
    const m = getModelMatrices(world, eid);
    const root = rootOffset();
    if (feet?.walking()) {
      camera.targetX = root.x; // the view follows the walk
      camera.targetZ = root.z;
    }
    camera.project(m[state.joint * 12 + 9]! + root.x, m[state.joint * 12 + 10]!, m[state.joint * 12 + 11]! + root.z, p);
    markers.circle(p[0]!, p[1]!, 6).stroke({ width: 2, color: 0xffffff });
    camera.project(follow.x, follow.y, follow.z, p);
    markers.circle(p[0]!, p[1]!, 7).stroke({ width: 2, color: 0xff6b6b });
    const f = getFollowPosition(world, eid);
    camera.project(f.x, f.y, f.z, p);
    markers.circle(p[0]!, p[1]!, 4).fill({ color: 0xffe066 });
    feet?.drawMarkers(markers, camera);
    const now = performance.now();
    if (now - lastOverlay > 200) {
      lastOverlay = now;
      plotFollower();
      const pose = getLocalPose(world, eid);
      const { Layers } = world.components;
      const layers = Array.from({ length: world.maxLayers }, (_, l) => l).filter((l) => Layers.clip[eid * world.maxLayers + l]! >= 0)
        .map((l) => `layer ${l}: ${world.assets.clips[Layers.clip[eid * world.maxLayers + l]!]!.name} w ${Layers.weight[eid * world.maxLayers + l]!.toFixed(2)} t ${Layers.time[eid * world.maxLayers + l]!.toFixed(3)} s`);
      overlay.textContent = [
        `${asset.label}: ${asset.skeleton.jointCount} joints · ${state.playing ? 'playing' : 'paused'} · phase ${phase().toFixed(3)}`,
        ...layers,
        `joint ${asset.skeleton.names[state.joint]} (white ring): ${channelOf()} = ${channelValue(pose, state.joint, channelOf(), asset.skeleton.rest).toFixed(4)}`,
        `follower (yellow) → target (red ring): ${f.x.toFixed(2)} ${f.y.toFixed(2)} ${f.z.toFixed(2)} m`,
        rendererInfo,
      ].join('\n');
    }
  });

  // ---- controls --------------------------------------------------------------------------

  await loadAsset();
  heading(panel, 'Character');
  select(panel, 'character', 'character', [['fox', 'Fox (skinned mesh)'], ['robot', 'RobotExpressive (whole: 19 meshes)']] as const, state.character, async (v) => {
    state.character = v;
    feet?.api.set({ walk: false });
    await loadAsset();
    expressions.reset();
    feet?.reset();
    setOptions(clipASelect, clipNames, state.clipA);
    setOptions(clipBSelect, ['none', ...clipNames], state.clipB);
    setOptions(jointSelect, [...asset.skeleton.names], asset.skeleton.names[state.joint]!);
    replot();
  });
  select(panel, 'body', 'bodies', [['auto', 'mesh when there is one'], ['capsules', 'capsules per bone']] as const, state.body, (v) => (state.body = v));
  checkbox(panel, 'lookat', 'look-at', state.lookAt, (v) => {
    state.lookAt = v;
    applyLookAt();
  });

  machines.mount(panel, loadAsset);

  heading(panel, 'Playback');
  const playButton = button(panel, 'play', state.playing ? 'Pause' : 'Play', () => {
    state.playing = !state.playing;
    playButton.textContent = state.playing ? 'Pause' : 'Play';
  });
  const scrub = slider(panel, 'scrub', 'phase', { min: 0, max: 0.999, step: 0.001 }, 0, (v) => {
    state.playing = false;
    playButton.textContent = 'Play';
    applyPlayback(v);
  }, true);
  slider(panel, 'speed', 'rate', { min: -2, max: 3, step: 0.05 }, 1, (v) => {
    state.speed = v;
    applyPlayback(phase());
  });

  heading(panel, 'Clips and blend');
  const clipASelect = select(panel, 'clipA', 'clip A', clipNames.map((n) => [n, n] as const), state.clipA, (v) => {
    state.clipA = v;
    feet?.reset();
    applyPlayback(state.playing ? phase() : scrubValue());
    replot();
  });
  const clipBSelect = select(panel, 'clipB', 'clip B', [['none', 'none'] as const, ...clipNames.map((n) => [n, n] as const)], state.clipB, (v) => {
    state.clipB = v;
    applyPlayback(phase());
    replot();
  });
  slider(panel, 'weight', 'weight of B', { min: 0, max: 1, step: 0.01 }, state.weight, (v) => {
    state.weight = v;
    applyPlayback(phase());
  }, true);
  checkbox(panel, 'sync', 'phase sync', state.sync, (v) => {
    state.sync = v;
    applyPlayback(phase());
  });
  note(panel, 'Blend: A on layer 0 (weight 1 − w), B on layer 1 (weight w); with phase sync both cycle in the weight-averaged duration.');

  heading(panel, 'Joint channel');
  const jointSelect = select(panel, 'joint', 'joint', asset.skeleton.names.map((n) => [n, n] as const), asset.skeleton.names[state.joint]!, (v) => {
    state.joint = asset.skeleton.names.indexOf(v);
    replot();
  });
  select(panel, 'channel', 'channel', CHANNELS.map((c) => [c, c === 'auto' ? 'auto (liveliest rotation component)' : c === 'angle' ? 'angle from rest (°)' : c] as const), state.channel, (v) => {
    state.channel = v;
    replot();
  });

  heading(panel, 'Transition: A → B');
  slider(panel, 'duration', 'duration (s)', { min: 0.05, max: 1.2, step: 0.05 }, state.duration, (v) => {
    state.duration = v;
    plotTransition();
  });
  panel.append(transitionCanvas, transitionLegend);
  note(panel, 'The same switch, each in a world of its own: cross-fade (both clips play, weights cross), quintic and spring inertialization (B plays at once; the offset from A decays).');

  const expressions = expressionPanel(app, panel, () => ({ asset, world, eid, crowd: crowd! }));

  feet = feetPanel(panel, () => ({ asset, world, eid, clip: clipA() }));
  feet.onStop(() => {
    crowd!.camera.targetX = crowd!.camera.targetZ = 0;
    applyPlayback(0);
  });
  feet.reset();

  heading(panel, 'Follower');
  panel.append(followCanvas);
  note(panel, 'Minimum-jerk follower (T = 0.4 s, target sampled every 0.2 s). Move the pointer over the view to lead the target.');

  heading(panel, 'Motion LOD');
  slider(panel, 'tolerance', 'tolerance (mm)', { min: 0.5, max: 50, step: 0.5 }, state.tolerance * 1000, (v) => {
    state.tolerance = v / 1000;
    plotLod();
  });
  panel.append(lodCanvas, lodLegend);
  lodNote = note(panel, '');
  lodNote.id = 'lod-note';

  app.canvas.addEventListener('pointermove', (e) => {
    if (e.buttons !== 0) return;
    const ground = [0, 0];
    unproject(crowd!.camera, e.offsetX, e.offsetY, ground, asset.height * 0.6);
    follow.x = ground[0]!;
    follow.y = asset.height * 0.6;
    follow.z = ground[1]!;
    follow.pointerAt = follow.clock;
  });

  function scrubValue(): number {
    return Number(scrub.range.value);
  }

  replot();
  ready = true;
  return {
    inspector: {
      /** The character's local pose now (J×10 floats), for the e2e test. */
      pose: () => Array.from(getLocalPose(world, eid)),
      state: () => ({ ...state, phase: phase(), clips: clipNames }),
      /** The state machines panel's view: each machine's states, current state, transition and parameters. */
      machines: () => machines.view(),
      expressions: expressions.api,
      /** The feet panel: contacts, skate read-outs and the walk / lock switches. */
      feet: feet.api,
      /** Canvas pixels (CSS) of joints by name, as the camera projects them now. */
      project: (names: string[]) => names.map((name) => {
        const j = asset.skeleton.names.indexOf(name);
        if (j < 0) return null;
        const m = getModelMatrices(world, eid), out = [0, 0];
        crowd!.camera.project(m[j * 12 + 9]!, m[j * 12 + 10]!, m[j * 12 + 11]!, out);
        return out;
      }),
    },
  };
}
