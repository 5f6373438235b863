/**
 * What the crowd view reports: the frame's clocks (fps, the game's own milliseconds), the
 * look-at check, the figures `window.__sandbox.stats()` returns and the overlay's lines.
 */
import { getFollowPosition, getModelMatrices } from 'bitanim';
import { PARALLEL_MIN_CHARACTERS } from 'bitanim/kernels';
import type { CrowdBodies } from './crowdBodies';
import type { TimedPipeline } from './pipeline';
import type { CrowdSim } from './simulation';
import {
  AIM_SAMPLE, AIM_TOLERANCE_DEG, LOD_TOLERANCES, LOD_UPDATE_EVERY, LOOK_PITCH_LIMIT, LOOK_YAW_LIMIT, type CrowdSettings,
} from './settings';

/** The frame's clocks: frames in the last second, and milliseconds of each part of the game's frame. */
export class FrameClock {
  /** Milliseconds: game logic, bodies and tints (`setTint` per character) + ground, pixi's render (CPU side, with the crowd renderer's update), the whole frame. */
  readonly ms = { logic: 0, upload: 0, render: 0, frame: 0 };
  private readonly frameTimes: number[] = [];
  private lastTick = performance.now();

  /** Frames in the last second. */
  get fps(): number {
    return this.frameTimes.length;
  }

  /** A frame starts at `now` (performance.now()). */
  tick(now: number): void {
    const wall = now - this.lastTick;
    this.lastTick = now;
    const frameTimes = this.frameTimes;
    frameTimes.push(now);
    while (frameTimes.length > 0 && frameTimes[0]! < now - 1000) frameTimes.shift();
    this.ms.frame = wall;
  }
}

/** The look-at check's result: heads sampled, of them those within `AIM_TOLERANCE_DEG`, their mean error. */
export interface AimCheck {
  sampled: number;
  aimed: number;
  meanDeg: number;
}

/**
 * The look-at check: of the first AIM_SAMPLE wandering characters, those whose follower lies
 * well inside the look-at limits (0.2 rad inside the yaw limit, 0.15 inside the pitch limit,
 * at least 0.3 m from the head), and how many of their heads point within
 * AIM_TOLERANCE_DEG of it: the head's forward axis (the rest-pose axis along the model's +Z,
 * `setLookAt`'s default) through its model matrix and the root transform, against the
 * follower's world position. Without look-at, heads point wherever the clip has them.
 */
export function checkAim(sim: CrowdSim): AimCheck {
  const result = { sampled: 0, aimed: 0, meanDeg: 0 };
  const { world, agents, asset, headAxis } = sim;
  if (sim.workload() !== 'locomotion' || asset.headJoint < 0) return result;
  const root = world.components.RootMotion;
  const o = asset.headJoint * 12;
  const ax = headAxis[0]!, ay = headAxis[1]!, az = headAxis[2]!;
  let sum = 0;
  for (let i = 0; i < Math.min(sim.count, AIM_SAMPLE); i++) {
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

/** What the overlay reads from. */
export interface CrowdReport {
  readonly sim: CrowdSim;
  readonly settings: CrowdSettings;
  readonly pipeline: TimedPipeline;
  readonly bodies: CrowdBodies;
  readonly clock: FrameClock;
}

/** The live figures `window.__sandbox.stats()` returns (the e2e test reads them). */
export function crowdStats({ sim, settings, pipeline, bodies, clock }: CrowdReport): Record<string, unknown> {
  const m = pipeline.means();
  const joints = sim.count * sim.asset.skeleton.jointCount;
  const systems: Record<string, number> = {};
  m.names.forEach((name, s) => (systems[name] = m.ms[s]!));
  return {
    fps: clock.fps,
    count: sim.count,
    character: sim.asset.kind,
    jointsPerCharacter: sim.asset.skeleton.jointCount,
    workload: sim.workload(),
    timing: pipeline.mode,
    threads: sim.world.threads,
    /** The kernels the world runs (`world.kernels`): 'wasm' or 'js'. */
    kernels: sim.world.kernels,
    /** With WebAssembly kernels: per thread, the skinning kernel's chunk calls so far (`world.wasm.area.chunks`). */
    wasmChunks: sim.world.wasm ? Array.from(sim.world.wasm.area.chunks.subarray(0, sim.world.threads)) : [],
    crossOriginIsolated,
    /** With threads: each thread's ms (thread 0: the page's), and whether the frames ran inline (too few characters). */
    threadMs: m.threadMs,
    inline: pipeline.inline,
    /** With threads: the wall time of stepParallel. */
    runtimeMs: m.total,
    frames: m.frames,
    nsPerJoint: joints > 0 ? (m.total * 1e6) / joints : 0,
    systems,
    gameLogicMs: clock.ms.logic,
    uploadMs: clock.ms.upload,
    trianglesPerFrame: bodies.trianglesPerFrame,
    /** The crowd renderer (bitanim/pixi): its CPU time per frame (`crowd.stats.updateMs`, median of the last frames drawn) and what the last frame drew. */
    renderer: rendererStats(bodies),
    lod: settings.lod,
    lodDistances: sim.lodDistances,
    levels: Array.from(bodies.levels),
    lookAt: settings.lookAt,
    aim: checkAim(sim),
    /** Foot locking: the setting and how many characters have the FootLock component enabled. */
    footLock: { on: settings.footLock, characters: sim.footLockCount() },
    /** The wanderers' state machines: characters running one (and the upper-body one), per locomotion state, and slot 0's getState. */
    machines: sim.machineStats(),
  };
}

const fmt = (v: number, digits = 2): string => v.toFixed(digits);

/** The crowd renderer's figures: CPU ms per frame (median, and the last frame's), draw calls, characters drawn and culled. */
function rendererStats(bodies: CrowdBodies): { medianMs: number; frames: number; lastMs: number; drawCalls: number; drawn: number; culled: number; body: string } {
  const { medianMs, frames } = bodies.rendererCost();
  const stats = bodies.crowd.stats;
  return { medianMs, frames, lastMs: stats.updateMs, drawCalls: stats.drawCalls, drawn: stats.drawn, culled: stats.culled, body: bodies.label };
}

/** The overlay's text: frame rate, runtime per system, the game's costs, bodies, workload, LOD and look-at. */
export function overlayText({ sim, settings, pipeline, bodies, clock }: CrowdReport, rendererInfo: string): string {
  const aim = checkAim(sim);
  const m = pipeline.means();
  const { count, asset } = sim;
  const gameMs = clock.ms;
  const workload = sim.workload();
  const joints = count * asset.skeleton.jointCount;
  const ns = joints > 0 ? (m.total * 1e6) / joints : 0;
  const threaded = m.threadMs.length > 0;
  const lines = [
    `fps ${clock.fps}  (frame ${fmt(gameMs.frame, 1)} ms)   ${count.toLocaleString('en-US')} characters × ${asset.skeleton.jointCount} joints = ${joints.toLocaleString('en-US')} joints`,
    threaded
      ? `runtime ${fmt(m.total)} ms/frame wall time = ${fmt(ns, 0)} ns/joint   (stepParallel on ${m.threadMs.length} threads, from the call to the promise settling; mean of ${m.frames} frames)`
      : `runtime ${fmt(m.total)} ms/frame = ${fmt(ns, 0)} ns/joint   (${pipeline.mode === 'chunked' ? 'systems timed chunk by chunk, as step runs them' : pipeline.mode === 'systems' ? 'each system over the whole crowd, as npm run bench' : 'one step() call'}; mean of ${m.frames} frames)`,
    threaded
      ? (pipeline.inline
        ? `  threads: inline on this page (fewer than ${PARALLEL_MIN_CHARACTERS} characters: the workers would cost more than they save)`
        : '  ' + m.threadMs.map((ms, t) => `thread ${t}${t === 0 ? ' (page)' : ''} ${fmt(ms)} ms`).join(' · '))
      : pipeline.mode === 'step' ? '  (per-system times: choose "chunked" or "systems")' : '  ' + m.names.map((name, s) => `${name} ${fmt(m.ms[s]!)}`).join(' · '),
    `kernels: ${sim.world.kernels === 'wasm' ? 'WebAssembly SIMD (skinning)' : 'JavaScript'} (world.kernels = '${sim.world.kernels}'${settings.kernels !== 'auto' ? `, ?kernels=${settings.kernels}` : ''})`,
    `game logic ${fmt(gameMs.logic)} ms · bodies + tints ${fmt(gameMs.upload)} ms · pixi render (CPU side) ${fmt(gameMs.render)} ms`,
    rendererLine(bodies),
    `bodies: ${bodies.label} = ${(bodies.trianglesPerFrame / 1e6).toFixed(2)} M triangles/frame`,
    `workload: ${workload === 'bench' ? 'bench (two clips 0.6 / 0.4, as npm run bench)' : `locomotion (state machines: idle ↔ walk/run blend space, ${settings.transitions} transitions, followers ${settings.followers ? 'on' : 'off'})`}`,
    machineLine(sim),
    settings.lod
      ? `motion LOD: characters per level ${Array.from(bodies.levels).join(' / ')} (rings at ${sim.lodDistances.join(' / ')} m; bakeLod ${LOD_TOLERANCES.map((t) => t * 1000).join(' / ')} mm; every ${LOD_UPDATE_EVERY.join(' / ')} frames)`
      : 'motion LOD: off',
    workload !== 'locomotion' ? 'look-at: none (bench workload)'
      : `look-at ${settings.lookAt ? 'on' : 'off'}: ${aim.aimed} of ${aim.sampled} sampled heads whose follower is inside the limits point within ${AIM_TOLERANCE_DEG}° of it (mean ${fmt(aim.meanDeg, 1)}°)`,
    footLockLine(sim, settings, m),
    rendererInfo,
  ];
  return lines.join('\n');
}

/** The overlay's line on foot locking: how many characters lock their feet, and what footLockSystem costs (when systems are timed). */
function footLockLine(sim: CrowdSim, settings: CrowdSettings, m: ReturnType<TimedPipeline['means']>): string {
  if (sim.workload() !== 'locomotion') return 'foot lock: none (bench workload)';
  const s = m.names.indexOf('footLock');
  const cost = s >= 0 && m.threadMs.length === 0 && (m.ms[s] ?? 0) > 0 ? ` · footLock system ${fmt(m.ms[s]!)} ms/frame` : '';
  return `foot lock ${settings.footLock ? 'on' : 'off'}: ${sim.footLockCount().toLocaleString('en-US')} characters lock their feet${cost}`;
}

/** The overlay's line on the state machines: how many characters run them, and how many are in each state. */
function machineLine(sim: CrowdSim): string {
  if (sim.machines === null) return 'state machines: none (bench workload)';
  const m = sim.machineStats();
  const states = Object.entries(m.states).map(([name, n]) => `${name} ${n}`).join(' · ');
  return `state machines: ${m.characters} characters (${states})${m.upper > 0 ? `; ${m.upper} with the upper-body wave machine` : ''}`;
}

/** The overlay's line on the crowd renderer. */
function rendererLine(bodies: CrowdBodies): string {
  const r = rendererStats(bodies);
  if (r.frames === 0) return 'renderer (bitanim/pixi): no frame drawn yet (or draw=0)';
  return `renderer (bitanim/pixi): CPU ${fmt(r.medianMs)} ms/frame (cull, slots, uniforms, uploads; median of ${r.frames} frames) · ${r.drawCalls} draw call${r.drawCalls === 1 ? '' : 's'} · ${r.drawn.toLocaleString('en-US')} drawn, ${r.culled.toLocaleString('en-US')} culled`;
}
