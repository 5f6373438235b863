/**
 * Crowd view: N characters wander a ground plane under an orthographic 3/4 camera.
 *
 * Each character is a bitanim entity with root motion. The game side (this file) steers it:
 * every few seconds it picks a heading and a target speed (or stops); the runtime turns the
 * speed into a blend of the walk and run cycles (`setBlendSpace` on a 1D space over speed)
 * and a playback rate (`setTargetSpeed`), and root motion carries the character that far.
 * Stopping and starting switch between idle and locomotion with `transition` — quintic
 * inertialization, spring inertialization or a cross-fade (the "transitions" control). Every
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
 */
import {
  bakeLod,
  clearLookAt,
  createAnimationWorld,
  createBlendSpace,
  getFollowPosition,
  getModelMatrices,
  play,
  quat,
  registerLodLevels,
  removeCharacter,
  removeLod,
  setBlendSpace,
  setFollower,
  setFollowTarget,
  setLod,
  setLodCamera,
  setLookAt,
  setRootTransform,
  setTargetSpeed,
  spawnCharacter,
  transition,
  POSE_STRIDE,
  type AnimationWorld,
  type BlendSpace,
  type Clip,
  type Skeleton,
  type TransitionMode,
} from 'bitanim';
import { Application, Container, Graphics, UPDATE_PRIORITY } from 'pixi.js';
import { loadCharacter, type CharacterAsset, type CharacterKind } from '../assets';
import { BENCH_WEIGHTS, benchPlan, createRandom } from '../benchRig';
import { BodyBatch, BodyUniforms, INSTANCE_FLOATS, PaletteTexture } from '../render/bodies';
import { OrthoCamera } from '../render/camera';
import { Ground } from '../render/ground';
import { attachCameraControls } from '../render/controls';
import { checkbox, heading, note, select, slider } from '../ui';
import { TimedPipeline, type TimingMode } from './pipeline';

export type Workload = 'locomotion' | 'bench';
export type BodyChoice = 'auto' | 'mesh' | 'capsules' | 'coarse';

/** Largest crowd the controls allow. */
export const MAX_CROWD = 16_000;
/**
 * 'auto' bodies: the mesh up to this many characters, capsules on every bone up to the next
 * limit, coarse capsules above. Software GL (SwiftShader) pays about half a microsecond per
 * triangle however small, so triangles per frame, not vertices, set the frame rate there.
 */
const AUTO_MESH_LIMIT = 600;
const AUTO_CAPSULE_LIMIT = 1_500;
/** Motion LOD: the tolerance of each level's reduced clips (`bakeLod`), metres, finest first. */
const LOD_TOLERANCES = [0.001, 0.005, 0.02, 0.05];
/** Level l is animated every `LOD_UPDATE_EVERY[l]`-th frame (update-rate LOD). */
const LOD_UPDATE_EVERY = [1, 2, 3, 4];
/** Level boundaries, as multiples of the view's half height (metres from the view's centre). */
const LOD_RINGS = [0.5, 1, 1.6];
/** Colour per LOD level: green 0, yellow 1, orange 2, red 3. */
const LOD_COLORS = [[0.35, 0.85, 0.45], [0.95, 0.85, 0.3], [0.98, 0.55, 0.2], [0.9, 0.25, 0.25]] as const;
/** Look-at limits, radians: left/right of the character's forward, up/down. */
const LOOK_YAW_LIMIT = 1.3;
const LOOK_PITCH_LIMIT = 0.6;
/** The overlay's look-at check: characters sampled, and the error below which a head counts as on target. */
const AIM_SAMPLE = 256;
const AIM_TOLERANCE_DEG = 3;
const TRANSITION_SECONDS = 0.3;

/** Per-character game state, indexed by slot (0 … count − 1). */
interface Agents {
  eid: Int32Array;
  moving: Uint8Array;
  heading: Float64Array;
  goalHeading: Float64Array;
  speed: Float64Array;
  goalSpeed: Float64Array;
  sentSpeed: Float64Array;
  decideAt: Float64Array;
  /** Sim time until which a cross-fade into locomotion runs (setBlendSpace waits for it). */
  fadeUntil: Float64Array;
  tint: Float32Array;
}

function createAgents(capacity: number): Agents {
  return {
    eid: new Int32Array(capacity),
    moving: new Uint8Array(capacity),
    heading: new Float64Array(capacity),
    goalHeading: new Float64Array(capacity),
    speed: new Float64Array(capacity),
    goalSpeed: new Float64Array(capacity),
    sentSpeed: new Float64Array(capacity),
    decideAt: new Float64Array(capacity),
    fadeUntil: new Float64Array(capacity),
    tint: new Float32Array(capacity * 3),
  };
}

export interface CrowdSettings {
  count: number;
  character: CharacterKind;
  body: BodyChoice;
  workload: Workload;
  transitions: TransitionMode;
  timing: TimingMode;
  lod: boolean;
  followers: boolean;
  lookAt: boolean;
  paused: boolean;
}

/** What the page exposes to the e2e test and the console (`window.__sandbox.crowd`). */
export interface CrowdHandle {
  settings: CrowdSettings;
  /** Live numbers of the overlay. */
  stats(): Record<string, unknown>;
}

export async function startCrowd(app: Application, panel: HTMLElement, overlay: HTMLElement, rendererInfo: string, params: URLSearchParams): Promise<CrowdHandle> {
  const settings: CrowdSettings = {
    count: clampCount(Number(params.get('count') ?? 2000)),
    character: (params.get('character') as CharacterKind | null) ?? 'fox',
    body: (params.get('body') as BodyChoice | null) ?? 'auto',
    workload: (params.get('workload') as Workload | null) ?? 'locomotion',
    transitions: (params.get('transitions') as TransitionMode | null) ?? 'inertialize',
    timing: (params.get('timing') as TimingMode | null) ?? 'chunked',
    lod: params.get('lod') === '1',
    followers: params.get('followers') !== '0',
    lookAt: params.get('lookat') !== '0',
    paused: false,
  };

  const camera = new OrthoCamera();
  const ground = new Ground(400);
  const scene = new Container();
  const markers = new Graphics();
  app.stage.addChild(ground.mesh, scene, markers);
  const pipeline = new TimedPipeline();
  pipeline.mode = settings.timing;
  attachCameraControls(app.canvas, camera);

  const characters = new Map<CharacterKind, CharacterAsset>();
  const getCharacter = async (kind: CharacterKind): Promise<CharacterAsset> => {
    let asset = characters.get(kind);
    if (!asset) characters.set(kind, (asset = await loadCharacter(kind)));
    return asset;
  };

  // The simulation: rebuilt when the character kind, workload or capacity changes.
  let asset = await getCharacter(settings.character);
  let world!: AnimationWorld;
  let capacity = 0;
  let agents!: Agents;
  let count = 0;
  let palette: PaletteTexture | undefined;
  let uniforms!: BodyUniforms;
  let meshBatch: BodyBatch | null = null;
  let capsuleBatch!: BodyBatch;
  let coarseBatch!: BodyBatch;
  let space: BlendSpace | null = null;
  let arena = 10;
  let simTime = 0;
  /** Reduced levels per clip (`bakeLod`), kept across worlds: baking is offline work (≈0.5 s for the Fox's three clips). */
  const bakedLevels = new Map<Clip, Clip[]>();
  /** Whether this world has the played clips' levels registered. */
  let lodRegistered = false;
  /** Level boundaries, metres from the view's centre (LOD_RINGS × the view's half height when LOD was applied). */
  let lodDistances: number[] = [];
  /** The head joint's forward axis in its own space (what `setLookAt` aims by default), for the overlay's check. */
  let headAxis: Float64Array = new Float64Array(3);
  let random = createRandom(7);
  const lure = { x: 0, y: 0.6, z: 0 };
  const gameMs = { logic: 0, upload: 0, render: 0, frame: 0 };
  let maxEid = 0;

  const workload = (): Workload => (asset.locomotion ? settings.workload : 'bench');
  /** The two clips of the bench workload: the rig's cycles, or the character's walk and run in place. */
  const benchClips = (): Clip[] => {
    const names = asset.kind === 'fox' ? ['Walk', 'Run'] : asset.kind === 'robot' ? ['Walking', 'Running'] : ['cycleA', 'cycleB'];
    return names.map((name) => asset.clips.get(name)!);
  };
  let plan: { startTime: Float64Array; speed: Float64Array } | undefined;

  function rebuild(newCapacity: number): void {
    scene.removeChildren().forEach((child) => child.destroy());
    palette?.source.destroy();
    plan = undefined;
    capacity = newCapacity;
    const rows = capacity + 1;
    world = createAnimationWorld({ maxEntities: rows - 1, maxJoints: asset.skeleton.jointCount, maxEvents: 64 });
    agents = createAgents(capacity);
    count = 0;
    maxEid = 0;
    simTime = 0;
    random = createRandom(7);
    palette = new PaletteTexture(world.components.SkinPalette.data, world.maxJoints);
    uniforms = new BodyUniforms(palette.width);
    meshBatch = asset.mesh ? new BodyBatch(asset.mesh, 0, palette, uniforms) : null;
    capsuleBatch = new BodyBatch(asset.capsules, 0, palette, uniforms);
    coarseBatch = new BodyBatch(asset.coarseCapsules, 0, palette, uniforms);
    if (meshBatch) scene.addChild(meshBatch.mesh);
    scene.addChild(capsuleBatch.mesh, coarseBatch.mesh);
    const loco = asset.locomotion;
    space = loco
      ? createBlendSpace({ type: '1d', samples: [{ clip: loco.walk, x: loco.walkSpeed }, { clip: loco.run, x: loco.runSpeed }] })
      : null;
    lodRegistered = false;
    if (asset.headJoint >= 0) headAxis = restForwardAxis(asset.skeleton, asset.headJoint);
    pipeline.reset();
  }

  function arenaRadius(n: number): number {
    const spacing = asset.kind === 'fox' ? 2.2 : asset.kind === 'robot' ? 3.2 : 2.6;
    return Math.max(6, Math.sqrt((n * spacing) / Math.PI));
  }

  function spawn(): void {
    const i = count;
    const r = arena * Math.sqrt(random()), a = random() * Math.PI * 2;
    let x = r * Math.cos(a), z = r * Math.sin(a);
    const yaw = random() * Math.PI * 2;
    const loco = asset.locomotion;
    const jitter = 0.85 + 0.3 * random();
    const base = asset.kind === 'fox' ? [0.92, 0.5, 0.22] : asset.kind === 'robot' ? [0.55, 0.62, 0.78] : [0.5, 0.72, 0.92];
    for (let c = 0; c < 3; c++) agents.tint[i * 3 + c] = Math.min(1, base[c]! * jitter);
    if (workload() === 'bench') {
      // A grid, as tight as the body allows.
      const side = Math.ceil(Math.sqrt(Math.max(1, settings.count)));
      const cell = asset.kind === 'bench' ? 1.2 : asset.kind === 'fox' ? 1.6 : 2.2;
      x = ((i % side) - side / 2) * cell;
      z = (Math.floor(i / side) - side / 2) * cell;
      const eid = spawnCharacter(world, asset.skeleton, { x, z, yaw: Math.PI / 4 });
      agents.eid[i] = eid;
      const clips = benchClips();
      if (!plan || plan.speed.length < (i + 1) * 2) plan = benchPlan(clips, Math.max(settings.count, i + 1));
      for (let layer = 0; layer < 2; layer++) {
        const k = i * 2 + layer;
        play(world, eid, clips[layer]!, { layer, weight: BENCH_WEIGHTS[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
      }
    } else {
      const eid = spawnCharacter(world, asset.skeleton, { rootMotion: true, x, z, yaw });
      agents.eid[i] = eid;
      agents.heading[i] = agents.goalHeading[i] = yaw;
      agents.fadeUntil[i] = 0;
      if (random() < 0.25) {
        agents.moving[i] = 0;
        agents.speed[i] = agents.goalSpeed[i] = 0;
        play(world, eid, loco!.idle, { time: random() * loco!.idle.duration });
      } else {
        agents.moving[i] = 1;
        const v = loco!.walkSpeed * (0.8 + random() * 1.6);
        agents.speed[i] = agents.goalSpeed[i] = v;
        play(world, eid, loco!.walk, { layer: 0, syncGroup: 0, loop: true, time: random() * loco!.walk.duration });
        sendSpeed(i);
      }
      agents.decideAt[i] = random() * 4;
      setFollower(world, eid, { x: lure.x, y: lure.y, z: lure.z, duration: 0.3 + 0.3 * random() });
      if (settings.lookAt) lookAt(eid);
    }
    maxEid = Math.max(maxEid, agents.eid[i]!);
    count++;
  }

  /** Turns `eid`'s head (and a share of its neck) toward its follower. */
  function lookAt(eid: number): void {
    if (asset.headJoint < 0) return;
    setLookAt(world, eid, {
      joint: asset.headJoint,
      ...(asset.neckJoint >= 0 ? { neck: asset.neckJoint, neckFraction: 0.35 } : {}),
      yawLimit: LOOK_YAW_LIMIT,
      pitchLimit: LOOK_PITCH_LIMIT,
    });
  }

  /** Applies the look-at setting to every wandering character. */
  function applyLookAt(): void {
    if (workload() !== 'locomotion') return;
    for (let i = 0; i < count; i++) {
      if (settings.lookAt) lookAt(agents.eid[i]!);
      else clearLookAt(world, agents.eid[i]!);
    }
  }

  /** The played clips whose reduced levels the crowd registers. */
  const lodClips = (): Clip[] => {
    const loco = asset.locomotion;
    return workload() === 'locomotion' && loco ? [loco.idle, loco.walk, loco.run] : benchClips();
  };

  /**
   * Applies the LOD setting to every character: with it, the played clips' levels are baked
   * (once per clip) and registered (once per world), and each character gets distance LOD
   * with rings scaled to the current view; without it, `removeLod` (pending time is flushed).
   */
  function applyLod(): void {
    if (settings.lod) {
      if (!lodRegistered) {
        for (const clip of lodClips()) {
          let levels = bakedLevels.get(clip);
          if (!levels) bakedLevels.set(clip, (levels = bakeLod(clip, LOD_TOLERANCES)));
          registerLodLevels(world, clip, levels);
        }
        lodRegistered = true;
      }
      lodDistances = LOD_RINGS.map((k) => Number((k * camera.halfHeight).toFixed(1)));
      const options = { levels: LOD_TOLERANCES.length, distances: lodDistances, updateEvery: LOD_UPDATE_EVERY };
      for (let i = 0; i < count; i++) setLod(world, agents.eid[i]!, options);
    } else {
      for (let i = 0; i < count; i++) removeLod(world, agents.eid[i]!);
    }
  }

  /** Sends slot i's speed to the runtime: the blend point and the rate. */
  function sendSpeed(i: number): void {
    const loco = asset.locomotion!;
    const eid = agents.eid[i]!;
    const v = Math.max(agents.speed[i]!, 0.3 * loco.walkSpeed);
    setBlendSpace(world, eid, space!, Math.min(Math.max(v, loco.walkSpeed), loco.runSpeed));
    setTargetSpeed(world, eid, v);
    agents.sentSpeed[i] = agents.speed[i]!;
  }

  function setCount(n: number): void {
    n = clampCount(n);
    settings.count = n;
    if (n > capacity) rebuild(Math.ceil((n + 1) / 2048) * 2048 - 1);
    arena = arenaRadius(n);
    if (workload() === 'bench' && count > 0) {
      // The grid depends on n: start over.
      rebuild(capacity);
    }
    while (count > n) {
      count--;
      removeCharacter(world, agents.eid[count]!);
    }
    while (count < n) spawn();
    maxEid = 0;
    for (let i = 0; i < count; i++) maxEid = Math.max(maxEid, agents.eid[i]!);
    camera.halfHeight = workload() === 'bench' ? Math.max(4, Math.sqrt(n) * (asset.kind === 'fox' ? 1.6 : 1.2) * 0.45) : Math.min(16, Math.max(5, arena * 0.62));
    const zoom = Number(params.get('zoom'));
    if (zoom > 0) camera.halfHeight = zoom;
    camera.targetX = camera.targetZ = 0;
    applyLod();
    pipeline.reset();
  }

  async function reload(): Promise<void> {
    asset = await getCharacter(settings.character);
    capacity = 0;
    rebuild(Math.ceil((settings.count + 1) / 2048) * 2048 - 1);
    setCount(settings.count);
    creditLine();
  }

  // ---- per frame -------------------------------------------------------------------------

  const mode = (): TransitionMode => settings.transitions;

  function decide(i: number): void {
    const loco = asset.locomotion!;
    const eid = agents.eid[i]!;
    const root = world.components.RootMotion;
    const x = root.x[eid]!, z = root.z[eid]!;
    const roll = random();
    const outside = x * x + z * z > arena * arena;
    if (roll < 0.2 && !outside) {
      agents.goalSpeed[i] = 0;
      agents.decideAt[i] = simTime + 2 + random() * 3;
    } else {
      agents.goalSpeed[i] = roll < 0.65 ? loco.walkSpeed * (0.8 + 0.4 * random()) : loco.runSpeed * (0.8 + 0.35 * random());
      agents.decideAt[i] = simTime + 2 + random() * 4;
    }
    agents.goalHeading[i] = outside
      ? Math.atan2(-x, -z) + (random() - 0.5) * 0.8
      : agents.heading[i]! + (random() - 0.5) * 2.4;
  }

  const steer = { yaw: 0 };

  function updateAgents(dt: number): void {
    const loco = asset.locomotion!;
    for (let i = 0; i < count; i++) {
      const eid = agents.eid[i]!;
      if (simTime >= agents.decideAt[i]!) decide(i);
      // Steer: turn toward the goal heading at ≤ 1.6 rad/s, change speed at ≤ 1.8 m/s².
      let dh = agents.goalHeading[i]! - agents.heading[i]!;
      dh = Math.atan2(Math.sin(dh), Math.cos(dh));
      const turn = 1.6 * dt;
      if (agents.moving[i]) agents.heading[i] = agents.heading[i]! + Math.max(-turn, Math.min(turn, dh));
      steer.yaw = agents.heading[i]!;
      setRootTransform(world, eid, steer); // one reused object: no allocation per agent
      const dv = agents.goalSpeed[i]! - agents.speed[i]!;
      const accel = 1.8 * dt;
      agents.speed[i] = agents.speed[i]! + Math.max(-accel, Math.min(accel, dv));

      if (agents.moving[i]) {
        if (agents.goalSpeed[i] === 0 && agents.speed[i]! < 0.6 * loco.walkSpeed && simTime >= agents.fadeUntil[i]!) {
          // Stop: locomotion → idle (the blend is walk alone below walking speed, so layer 1 is free).
          transition(world, eid, loco.idle, { duration: TRANSITION_SECONDS, mode: mode(), speed: 1, time: random() * loco.idle.duration });
          agents.moving[i] = 0;
          agents.speed[i] = 0;
          agents.fadeUntil[i] = simTime + TRANSITION_SECONDS + 0.05;
        } else if (simTime >= agents.fadeUntil[i]! && Math.abs(agents.speed[i]! - agents.sentSpeed[i]!) > 0.04) {
          sendSpeed(i);
        }
      } else if (agents.goalSpeed[i]! > 0 && simTime >= agents.fadeUntil[i]!) {
        // Start: idle → walk, then the blend space takes over once a cross-fade is done.
        agents.moving[i] = 1;
        agents.speed[i] = 0.5 * loco.walkSpeed;
        transition(world, eid, loco.walk, { duration: TRANSITION_SECONDS, mode: mode(), layer: 0, syncGroup: 0, loop: true, speed: 0.5 });
        if (mode() === 'crossfade') {
          agents.fadeUntil[i] = simTime + TRANSITION_SECONDS + 0.05;
          agents.sentSpeed[i] = -1;
        } else sendSpeed(i);
      }
    }
    // The lure circles the arena; followers sample it (a twelfth of the crowd per frame:
    // followers only sample their target every 0.2 s anyway).
    const angle = simTime * 0.25;
    lure.x = Math.cos(angle) * arena * 0.55 + Math.cos(angle * 3.1) * arena * 0.15;
    lure.z = Math.sin(angle) * arena * 0.55 + Math.sin(angle * 2.3) * arena * 0.15;
    lure.y = 0.6 + 0.4 * Math.sin(angle * 5);
    if (settings.followers) {
      for (let i = frameIndex % 12; i < count; i += 12) setFollowTarget(world, agents.eid[i]!, lure.x, lure.y, lure.z);
    }
  }

  let frameIndex = 0;
  const levels = new Uint32Array(LOD_COLORS.length);
  const eye = new Float64Array(3);

  function fillInstances(): void {
    const root = world.components.RootMotion;
    let choice = settings.body;
    if (choice === 'auto') choice = count <= AUTO_MESH_LIMIT ? 'mesh' : count <= AUTO_CAPSULE_LIMIT ? 'capsules' : 'coarse';
    if (choice === 'mesh' && !meshBatch) choice = 'capsules';
    const batch = choice === 'mesh' ? meshBatch! : choice === 'capsules' ? capsuleBatch : coarseBatch;
    const body = choice === 'mesh' ? asset.mesh! : choice === 'capsules' ? asset.capsules : asset.coarseCapsules;
    batch.reserve(count);
    const data = batch.instances;
    const perEntity = palette!.texelsPerEntity;
    const lodLevel = world.components.Lod.level;
    levels.fill(0);
    for (let i = 0; i < count; i++) {
      const eid = agents.eid[i]!;
      const o = i * INSTANCE_FLOATS;
      data[o] = root.x[eid]!;
      data[o + 1] = root.y[eid]!;
      data[o + 2] = root.z[eid]!;
      data[o + 3] = root.yaw[eid]!;
      data[o + 4] = eid * perEntity;
      if (settings.lod) {
        // The level lodSystem picked this frame (255, unset, before the first frame: shown as 0).
        const picked = lodLevel[eid]!;
        const level = picked < LOD_COLORS.length ? picked : 0;
        levels[level]!++;
        const color = LOD_COLORS[level]!;
        data[o + 5] = color[0];
        data[o + 6] = color[1];
        data[o + 7] = color[2];
      } else {
        data[o + 5] = agents.tint[i * 3]!;
        data[o + 6] = agents.tint[i * 3 + 1]!;
        data[o + 7] = agents.tint[i * 3 + 2]!;
      }
    }
    for (const other of [meshBatch, capsuleBatch, coarseBatch]) if (other && other !== batch) other.commit(0);
    batch.commit(debugNoDraw ? 0 : count);
    if (!debugNoUpload) palette!.upload(1, maxEid);
    const triangles = body.indices.length / 3;
    const what = choice === 'mesh' ? `${asset.label} mesh` : choice === 'capsules' ? 'capsules on every bone' : 'coarse capsules (long bones)';
    bodyLabel = `${what}, GPU-skinned: ${body.vertexCount.toLocaleString('en-US')} vertices, ${triangles.toLocaleString('en-US')} triangles × ${count.toLocaleString('en-US')}`;
    trianglesPerFrame = triangles * count;
  }

  const debugNoDraw = params.get('draw') === '0';
  const debugNoUpload = params.get('upload') === '0';
  let bodyLabel = '';
  let trianglesPerFrame = 0;

  function drawMarkers(): void {
    markers.clear();
    if (workload() !== 'locomotion' || !settings.followers) return;
    const p = [0, 0];
    camera.project(lure.x, lure.y, lure.z, p);
    const g = [0, 0];
    camera.project(lure.x, 0, lure.z, g);
    markers.moveTo(g[0]!, g[1]!).lineTo(p[0]!, p[1]!).stroke({ width: 1, color: 0xffe066, alpha: 0.6 });
    markers.circle(p[0]!, p[1]!, 6).fill({ color: 0xffe066 });
    // A few followers, to show them trailing the lure.
    for (let i = 0; i < Math.min(count, 24); i++) {
      const f = getFollowPosition(world, agents.eid[i]!);
      camera.project(f.x, f.y, f.z, p);
      markers.circle(p[0]!, p[1]!, 2.5).fill({ color: 0x66d9ff, alpha: 0.9 });
    }
  }

  // fps over the last second
  const frameTimes: number[] = [];
  let lastTick = performance.now();
  let tickStart = 0;

  app.ticker.add((ticker) => {
    tickStart = performance.now();
    const wall = tickStart - lastTick;
    lastTick = tickStart;
    frameTimes.push(tickStart);
    while (frameTimes.length > 0 && frameTimes[0]! < tickStart - 1000) frameTimes.shift();
    gameMs.frame = wall;
    camera.width = app.renderer.width / app.renderer.resolution;
    camera.height = app.renderer.height / app.renderer.resolution;
    camera.update();
    if (!settings.paused && count >= 0) {
      const dt = Math.min(ticker.deltaMS / 1000, 0.1);
      const t0 = performance.now();
      if (workload() === 'locomotion') updateAgents(dt);
      // LOD measures from the view's centre on the ground (an orthographic view has no eye distance).
      if (settings.lod) setLodCamera(world, camera.targetX, 0, camera.targetZ);
      const t1 = performance.now();
      pipeline.run(world, dt);
      simTime += dt;
      frameIndex++;
      gameMs.logic = t1 - t0;
    }
    const t2 = performance.now();
    camera.back(eye);
    uniforms.setCamera(camera.viewProj, eye);
    ground.update(camera.viewProj, workload() === 'locomotion' ? arena : 0);
    fillInstances();
    drawMarkers();
    renderStart = performance.now();
    gameMs.upload = renderStart - t2;
  });
  let renderStart = 0;
  // After pixi has rendered (its render runs at LOW priority): the CPU side of drawing.
  app.ticker.add(() => {
    gameMs.render = performance.now() - renderStart;
  }, undefined, UPDATE_PRIORITY.UTILITY);

  // ---- overlay ---------------------------------------------------------------------------

  const fmt = (v: number, digits = 2): string => v.toFixed(digits);

  /**
   * The look-at check: of the first AIM_SAMPLE wandering characters, those whose follower lies
   * well inside the look-at limits (0.2 rad inside the yaw limit, 0.15 inside the pitch limit,
   * at least 0.3 m from the head), and how many of their heads point within
   * AIM_TOLERANCE_DEG of it: the head's forward axis (the rest-pose axis along the model's +Z,
   * `setLookAt`'s default) through its model matrix and the root transform, against the
   * follower's world position. Without look-at, heads point wherever the clip has them.
   */
  function aimCheck(): { sampled: number; aimed: number; meanDeg: number } {
    const result = { sampled: 0, aimed: 0, meanDeg: 0 };
    if (workload() !== 'locomotion' || asset.headJoint < 0) return result;
    const root = world.components.RootMotion;
    const o = asset.headJoint * 12;
    const ax = headAxis[0]!, ay = headAxis[1]!, az = headAxis[2]!;
    let sum = 0;
    for (let i = 0; i < Math.min(count, AIM_SAMPLE); i++) {
      const eid = agents.eid[i]!;
      const m = getModelMatrices(world, eid);
      const f = getFollowPosition(world, eid);
      // The follower in model space, p_m = R(−yaw)·(p_w − root), relative to the head.
      const yaw = root.yaw[eid]!, c = Math.cos(yaw), s = Math.sin(yaw);
      const wx = f.x - root.x[eid]!, wy = f.y - root.y[eid]!, wz = f.z - root.z[eid]!;
      const dx = wx * c - wz * s - m[o + 9]!, dy = wy - m[o + 10]!, dz = wx * s + wz * c - m[o + 11]!;
      const horizontal = Math.hypot(dx, dz), distance = Math.hypot(horizontal, dy);
      if (distance < 0.3 || Math.abs(Math.atan2(dx, dz)) > LOOK_YAW_LIMIT - 0.2 || Math.abs(Math.atan2(dy, horizontal)) > LOOK_PITCH_LIMIT - 0.15) continue;
      const fx = m[o]! * ax + m[o + 3]! * ay + m[o + 6]! * az;
      const fy = m[o + 1]! * ax + m[o + 4]! * ay + m[o + 7]! * az;
      const fz = m[o + 2]! * ax + m[o + 5]! * ay + m[o + 8]! * az;
      const cos = (fx * dx + fy * dy + fz * dz) / (Math.hypot(fx, fy, fz) * distance);
      const deg = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
      result.sampled++;
      if (deg <= AIM_TOLERANCE_DEG) result.aimed++;
      sum += deg;
    }
    result.meanDeg = result.sampled > 0 ? sum / result.sampled : 0;
    return result;
  }
  let aim = { sampled: 0, aimed: 0, meanDeg: 0 };

  function stats(): Record<string, unknown> {
    const m = pipeline.means();
    const joints = count * asset.skeleton.jointCount;
    const systems: Record<string, number> = {};
    m.names.forEach((name, s) => (systems[name] = m.ms[s]!));
    return {
      fps: frameTimes.length,
      count,
      character: asset.kind,
      jointsPerCharacter: asset.skeleton.jointCount,
      workload: workload(),
      timing: pipeline.mode,
      runtimeMs: m.total,
      frames: m.frames,
      nsPerJoint: joints > 0 ? (m.total * 1e6) / joints : 0,
      systems,
      gameLogicMs: gameMs.logic,
      uploadMs: gameMs.upload,
      trianglesPerFrame,
      lod: settings.lod,
      lodDistances,
      levels: Array.from(levels),
      lookAt: settings.lookAt,
      aim: aimCheck(),
    };
  }

  function renderOverlay(): void {
    aim = aimCheck();
    const m = pipeline.means();
    const joints = count * asset.skeleton.jointCount;
    const ns = joints > 0 ? (m.total * 1e6) / joints : 0;
    const lines = [
      `fps ${frameTimes.length}  (frame ${fmt(gameMs.frame, 1)} ms)   ${count.toLocaleString('en-US')} characters × ${asset.skeleton.jointCount} joints = ${joints.toLocaleString('en-US')} joints`,
      `runtime ${fmt(m.total)} ms/frame = ${fmt(ns, 0)} ns/joint   (${pipeline.mode === 'chunked' ? 'systems timed chunk by chunk, as step runs them' : pipeline.mode === 'systems' ? 'each system over the whole crowd, as npm run bench' : 'one step() call'}; mean of ${m.frames} frames)`,
      pipeline.mode === 'step' ? '  (per-system times: choose "chunked" or "systems")' : '  ' + m.names.map((name, s) => `${name} ${fmt(m.ms[s]!)}`).join(' · '),
      `game logic ${fmt(gameMs.logic)} ms · instances + palette upload ${fmt(gameMs.upload)} ms · pixi render (CPU side) ${fmt(gameMs.render)} ms`,
      `bodies: ${bodyLabel} = ${(trianglesPerFrame / 1e6).toFixed(2)} M triangles/frame`,
      `workload: ${workload() === 'bench' ? 'bench (two clips 0.6 / 0.4, as npm run bench)' : `locomotion (walk/run blend space, ${settings.transitions} transitions, followers ${settings.followers ? 'on' : 'off'})`}`,
      settings.lod
        ? `motion LOD: characters per level ${Array.from(levels).join(' / ')} (rings at ${lodDistances.join(' / ')} m; bakeLod ${LOD_TOLERANCES.map((t) => t * 1000).join(' / ')} mm; every ${LOD_UPDATE_EVERY.join(' / ')} frames)`
        : 'motion LOD: off',
      workload() !== 'locomotion' ? 'look-at: none (bench workload)'
        : `look-at ${settings.lookAt ? 'on' : 'off'}: ${aim.aimed} of ${aim.sampled} sampled heads whose follower is inside the limits point within ${AIM_TOLERANCE_DEG}° of it (mean ${fmt(aim.meanDeg, 1)}°)`,
      rendererInfo,
    ];
    overlay.textContent = lines.join('\n');
  }
  setInterval(renderOverlay, 250);

  // ---- controls --------------------------------------------------------------------------

  heading(panel, 'Crowd');
  slider(panel, 'count', 'characters', { min: 0, max: MAX_CROWD, step: 1 }, settings.count, (v) => setCount(v));
  note(panel, `"auto" bodies: the skinned mesh up to ${AUTO_MESH_LIMIT} characters, capsules on every bone up to ${AUTO_CAPSULE_LIMIT.toLocaleString('en-US')}, coarse capsules above (software WebGL pays per triangle).`);
  select(panel, 'character', 'character', [['fox', 'Fox (glTF, skinned mesh)'], ['robot', 'RobotExpressive (capsules)'], ['bench', 'bench rig, 64 joints (capsules)']] as const, settings.character, (v) => {
    settings.character = v;
    void reload();
  });
  select(panel, 'body', 'bodies', [['auto', 'auto'], ['mesh', 'skinned mesh'], ['capsules', 'capsules, every bone'], ['coarse', 'capsules, long bones']] as const, settings.body, (v) => (settings.body = v));
  select(panel, 'workload', 'workload', [['locomotion', 'wander (locomotion)'], ['bench', 'bench (2 clips 0.6/0.4)']] as const, settings.workload, (v) => {
    settings.workload = v;
    void reload();
  });
  heading(panel, 'Animation');
  select(panel, 'transitions', 'transitions', [['inertialize', 'inertialization (quintic)'], ['spring', 'inertialization (spring)'], ['crossfade', 'cross-fade']] as const, settings.transitions, (v) => (settings.transitions = v));
  checkbox(panel, 'followers', 'followers', settings.followers, (v) => (settings.followers = v));
  checkbox(panel, 'lookat', 'look-at', settings.lookAt, (v) => {
    settings.lookAt = v;
    applyLookAt();
  });
  note(panel, 'Heads (the neck taking a share) look at their follower: setLookAt, solved in step by aimSystem.');
  checkbox(panel, 'lod', 'motion LOD', settings.lod, (v) => {
    settings.lod = v;
    applyLod();
  });
  note(panel, 'Colour per LOD level by distance from the view\'s centre: green 0, yellow 1, orange 2, red 3 (clips reduced by bakeLod, levels 1–3 animated every 2nd–4th frame).');
  heading(panel, 'Measure');
  select(panel, 'timing', 'timing', [['chunked', 'per system, chunked (as step)'], ['systems', 'per system, whole crowd (as bench)'], ['step', 'step() as a whole']] as const, settings.timing, (v) => {
    settings.timing = v;
    pipeline.mode = v;
    pipeline.reset();
  });
  checkbox(panel, 'paused', 'pause', settings.paused, (v) => (settings.paused = v));
  note(panel, 'Drag to pan, wheel to zoom. The yellow point is the lure the followers chase; blue dots are 24 of the followers.');

  const credits = document.getElementById('credits')!;
  function creditLine(): void {
    credits.textContent = `${asset.label}: ${asset.credit}`;
  }

  await reload();
  return { settings, stats };
}

function clampCount(n: number): number {
  return Math.max(0, Math.min(MAX_CROWD, Math.round(Number.isFinite(n) ? n : 0)));
}

export type { Clip };

/** The head joint's axis that points along the model's +Z in the rest pose (as `setLookAt`'s default). */
function restForwardAxis(skeleton: Skeleton, head: number): Float64Array {
  const path: number[] = [];
  for (let j = head; j >= 0; j = skeleton.parents[j]!) path.push(j);
  const q = Float64Array.of(0, 0, 0, 1);
  for (let k = path.length - 1; k >= 0; k--) quat.multiply(q, 0, q, 0, skeleton.rest, path[k]! * POSE_STRIDE + 3);
  quat.normalize(q, 0, q, 0);
  quat.conjugate(q, 0, q, 0);
  const axis = new Float64Array(3);
  quat.rotateVec3(axis, 0, q, 0, Float64Array.of(0, 0, 1), 0);
  return axis;
}
