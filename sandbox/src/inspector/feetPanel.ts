/**
 * The inspector's feet: when clip A plants each foot, how far the planted feet slide, and foot
 * locking on a character the game moves faster than its clip.
 *
 * - **Feet.** The Fox's four paws, or the humanoid map's feet (`humanoidMap`; the Robot's IK
 *   feet `Foot.L`, `Foot.R`). The bench rig has none.
 * - **Plot.** Each foot's model-space height over clip A (the clip posed frame by frame in a
 *   world of its own), its contacts (`detectFootContacts`) shaded and drawn as bars under it.
 * - **Skate of the clip.** `measureFootSkate` of clip A over those contacts, in model space: for
 *   an in-place cycle that is the ground sliding under the body, so it is also given for the clip
 *   with the travel its planted feet imply (`rootMotionFromFeet`).
 * - **Foot lock.** "walk at pace" moves the character along clip A's travel (from
 *   `rootMotionFromFeet`) times the pace, by `setRootTransform`, while it plays clip A in place with
 *   its contacts as events; "foot lock" turns `setFootLock` on (the legs above) or off
 *   (`clearFootLock`). The read-outs are world-space `measureFootSkate` of the feet's positions:
 *   four cycles stepped at the clip's frame rate with and without the lock, each in a world of its
 *   own, and the character on screen over its last seconds (stepped at 60 Hz while it walks).
 */
import {
  clearFootLock, createAnimationWorld, detectFootContacts, getJointWorldMatrix, getModelMatrices, measureFootSkate, play, rootMotionFromFeet,
  setFootLock, setRootTransform, spawnCharacter, step, stop, type AnimationWorld, type Clip, type FootContacts, type FootSkate,
} from 'bitanim';
import { getRootTrack } from 'bitanim/kernels';
import type { CrowdCamera } from 'bitanim/pixi';
import type { Graphics } from 'pixi.js';
import { feetOf, type CharacterAsset, type CharacterFeet } from '../assets';
import { checkbox, heading, note, slider } from '../ui';
import { drawPlot, legend, type Band, type Series } from './plot';

/** What the panel reads of the inspector (it changes when the character or clip A changes). */
export interface FeetTarget {
  asset: CharacterAsset;
  world: AnimationWorld;
  eid: number;
  clip: Clip;
}

/** Skate figures in millimetres, for the page and the e2e test. */
export interface SkateFigures {
  meanMm: number;
  maxMm: number;
  contacts: number;
}

/** The page API the e2e test uses. */
export interface FeetApi {
  /** The feet's joint names (empty when the character has none). */
  feet(): string[];
  /** Clip A's contacts per foot, seconds ([start, end]; start > end runs over a looping clip's seam). */
  contacts(): [number, number][][];
  /** Clip A's model-space skate (null when it could not be measured). */
  clipSkate(): SkateFigures | null;
  /** Four cycles at the pace, world space: with the lock and without (null without feet or travel). */
  compare(): { locked: SkateFigures; free: SkateFigures; pace: number; speed: number } | null;
  /** The character on screen over its last seconds, world space (null until a contact has ended while walking). */
  live(): (SkateFigures & { locked: boolean; seconds: number }) | null;
  /** Starts or stops walking at the pace, with or without the lock. */
  set(options: { walk?: boolean; lock?: boolean; pace?: number }): void;
}

/** Colours per foot. */
const COLORS = ['#ff8c5a', '#5fb8ff', '#ffd35a', '#b58cff'];
/** The live read-out's step and window. */
const LIVE_RATE = 60;
const LIVE_SECONDS = 6;
/** Cycles of the offline comparison. */
const CYCLES = 4;
/** Past this distance from the origin the walking character is taken back (the ground is 50 m wide). */
const WRAP = 15;

const mm = (metres: number): number => Number((metres * 1000).toFixed(metres < 0.01 ? 2 : 1));
const figures = (skate: FootSkate): SkateFigures => ({ meanMm: mm(skate.mean), maxMm: mm(skate.max), contacts: skate.contacts });
const describe = (s: SkateFigures): string => `mean ${s.meanMm} mm, max ${s.maxMm} mm per contact over ${s.contacts} contacts`;

/** Whether time `t` lies in a contact interval (start > end: over the seam). */
function inside(t: number, interval: readonly [number, number], slack: number): boolean {
  const [s, e] = interval;
  return s <= e ? t >= s - slack && t <= e + slack : t >= s - slack || t <= e + slack;
}

/** A clip's intervals repeated over `cycles` cycles of `duration`, each within [0, cycles × duration], in time order. */
function overCycles(intervals: readonly [number, number][], duration: number, cycles: number): [number, number][] {
  const end = cycles * duration;
  const out: [number, number][] = [];
  for (const [s, e] of intervals) {
    if (s <= e) {
      for (let k = 0; k < cycles; k++) out.push([s + k * duration, e + k * duration]);
    } else {
      out.push([0, e]);
      for (let k = 0; k < cycles; k++) out.push([s + k * duration, Math.min(end, e + (k + 1) * duration)]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Whether joint `j` lies below joint `ancestor` (parent indices `parents`). */
function below(parents: ArrayLike<number>, j: number, ancestor: number): boolean {
  for (let p = parents[j]!; p >= 0; p = parents[p]!) if (p === ancestor) return true;
  return false;
}

/** The horizontal velocity (x, z, m/s) clip A travels at by its planted feet (`rootMotionFromFeet`), or null. */
function travelVelocity(clip: Clip, feet: CharacterFeet): [number, number] | null {
  try {
    const cycle = getRootTrack(rootMotionFromFeet(clip, { feet: feet.feet })).cycle;
    const vx = cycle[0]! / clip.duration, vz = cycle[2]! / clip.duration;
    return Math.hypot(vx, vz) > 0.05 ? [vx, vz] : null;
  } catch {
    return null;
  }
}

/**
 * Builds the panel (appended to `panel` where it is called). `target()` gives the inspector's
 * character and clip A; call `reset()` after either changes. While it walks, the inspector calls
 * `advance(dt)` instead of `step`, and `restart()` instead of its own playback.
 */
export function feetPanel(panel: HTMLElement, target: () => FeetTarget) {
  heading(panel, 'Feet: contacts and foot locking');
  const canvas = Object.assign(document.createElement('canvas'), { id: 'plot-feet', className: 'plot' });
  const legendHost = document.createElement('div');
  panel.append(canvas, legendHost);
  const clipNote = note(panel, '');
  clipNote.id = 'feet-skate';
  const state = { walk: false, lock: true, pace: 1.25 };
  const walkBox = checkbox(panel, 'feet-walk', 'walk at pace', state.walk, (v) => set({ walk: v }));
  const paceSlider = slider(panel, 'feet-pace', 'pace (× the clip\'s travel)', { min: 0.5, max: 2, step: 0.05 }, state.pace, (v) => set({ pace: v }));
  const lockBox = checkbox(panel, 'feet-lock', 'foot lock', state.lock, (v) => set({ lock: v }));
  const compareNote = note(panel, '');
  compareNote.id = 'feet-compare';
  const liveNote = note(panel, '');
  liveNote.id = 'feet-live';
  note(panel, 'Walking, the character plays clip A in place at rate 1 while the game moves it at the pace times the travel its planted feet imply; the lock holds each planted foot where it landed (two-bone IK on its leg). Filled dots in the view: planted feet.');

  let feet: CharacterFeet | null = null;
  let detected: FootContacts | null = null;
  let velocity: [number, number] | null = null;
  let clipSkate: SkateFigures | null = null;
  let comparison: ReturnType<FeetApi['compare']> = null;
  let liveFigures: ReturnType<FeetApi['live']> = null;

  // The walk: root position, the fixed-step clock, and the recorded feet (world x y z, planted flags).
  const root = { x: 0, z: 0 };
  const steer = { x: 0, z: 0 };
  let carry = 0;
  let samples = 0;
  let sinceReadout = 0;
  const capacity = LIVE_RATE * LIVE_SECONDS;
  let paths: Float64Array[] = [];
  let planted: Uint8Array[] = [];
  const matrix = new Float64Array(12);
  const point = [0, 0];

  function reset(): void {
    const { asset, clip } = target();
    feet = feetOf(asset);
    detected = null;
    velocity = null;
    clipSkate = null;
    comparison = null;
    let message = '';
    if (feet === null) message = `${asset.label}: no feet (not a humanoid, not the Fox).`;
    else {
      try {
        detected = detectFootContacts(clip, { feet: feet.feet });
        const skate = figures(measureFootSkate(clip, detected));
        clipSkate = skate;
        message = `${clip.name}, ${feet.source}, model space (measureFootSkate): ${describe(skate)}`;
        try {
          const travelling = rootMotionFromFeet(clip, { feet: feet.feet });
          const carrier = getRootTrack(travelling).joint;
          const carried = feet.feet.every((name) => below(asset.skeleton.parents, asset.skeleton.names.indexOf(name), carrier));
          message += carried
            ? `; with the travel its planted feet imply (rootMotionFromFeet): ${describe(figures(measureFootSkate(travelling, detected)))}.`
            : `; its feet hang outside ${asset.skeleton.names[carrier]}, which rootMotionFromFeet gives the travel, so model space does not show them travel.`;
        } catch (error) {
          message += `; rootMotionFromFeet refused: ${(error as Error).message}`;
        }
        message += ' Per foot: ' + measureFootSkate(clip, detected).feet.map((f, k) => `${feet!.feet[k]} ${f.contacts} × mean ${mm(f.mean)} mm`).join(', ') + '.';
        velocity = travelVelocity(clip, feet);
      } catch (error) {
        message = `${clip.name}: ${(error as Error).message}`;
      }
    }
    clipNote.textContent = message;
    plot();
    compare();
    if (state.walk) restart();
    else clearLive();
    walkBox.disabled = lockBox.disabled = velocity === null || detected === null;
  }

  /** Heights of each foot over clip A (model space, per frame), its contacts as bands. */
  function plot(): void {
    const { asset, clip } = target();
    if (feet === null || detected === null) {
      drawPlot(canvas, [], { title: 'feet', message: clipNote.textContent ?? 'no feet' });
      legendHost.replaceChildren();
      return;
    }
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: asset.skeleton.jointCount, maxEvents: 16 });
    const eid = spawnCharacter(world, asset.skeleton);
    const joints = feet.feet.map((name) => asset.skeleton.names.indexOf(name));
    const t: number[] = [];
    const heights = joints.map(() => [] as number[]);
    for (let f = 0; f < clip.frameCount; f++) {
      play(world, eid, clip, { time: f / clip.frameRate, speed: 0, loop: false });
      step(world, 0);
      const m = getModelMatrices(world, eid);
      t.push(f / clip.frameRate);
      joints.forEach((j, k) => heights[k]!.push(m[j * 12 + 10]!));
    }
    const series: Series[] = feet.feet.map((name, k) => ({ label: name, color: COLORS[k % COLORS.length]!, x: t, y: heights[k]!, width: 2 }));
    const bands: Band[] = [];
    detected.contacts.forEach((c, k) => {
      for (const [s, e] of c.intervals) {
        const color = COLORS[k % COLORS.length]!;
        if (s <= e) bands.push({ from: s, to: e, color, lane: k });
        else bands.push({ from: s, to: clip.duration, color, lane: k }, { from: 0, to: e, color, lane: k });
      }
    });
    drawPlot(canvas, series, { title: `${clip.name}: foot height (model space, m); bars: contacts (detectFootContacts)`, bands, lanes: feet.feet.length });
    legend(legendHost, series.map((s, k) => ({ label: `${s.label} (${detected!.contacts[k]!.intervals.length} contact${detected!.contacts[k]!.intervals.length === 1 ? '' : 's'})`, color: s.color })));
  }

  /** Four cycles stepped at the clip's rate, the character moved at the pace: world-space skate with and without the lock. */
  function compare(): void {
    comparison = null;
    const { asset, clip } = target();
    if (feet === null || detected === null || velocity === null) {
      compareNote.textContent = velocity === null && detected !== null ? `${clip.name} has no travel to move it by: pick a walk or a run as clip A.` : '';
      return;
    }
    const rate = clip.frameRate;
    const frames = CYCLES * (clip.frameCount - 1) + 1;
    const contacts = detected.contacts.map((c) => ({ joint: c.joint, intervals: overCycles(c.intervals, clip.duration, CYCLES) }));
    const run = (locked: boolean): FootSkate => {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: asset.skeleton.jointCount, maxEvents: 64 });
      const eid = spawnCharacter(world, asset.skeleton);
      play(world, eid, detected!.clip, { loop: clip.loop });
      if (locked) setFootLock(world, eid, { legs: feet!.legs });
      const positions = feet!.feet.map(() => new Float64Array(frames * 3));
      const m = new Float64Array(12);
      for (let f = 0; f < frames; f++) {
        const time = f / rate;
        setRootTransform(world, eid, { x: state.pace * velocity![0] * time, z: state.pace * velocity![1] * time });
        step(world, f === 0 ? 0 : 1 / rate);
        feet!.feet.forEach((name, k) => {
          getJointWorldMatrix(world, eid, name, m);
          positions[k]!.set([m[9]!, m[10]!, m[11]!], f * 3);
        });
      }
      return measureFootSkate({ frameRate: rate, positions }, contacts);
    };
    try {
      const locked = figures(run(true)), free = figures(run(false));
      const speed = Number((state.pace * Math.hypot(velocity[0], velocity[1])).toFixed(3));
      comparison = { locked, free, pace: state.pace, speed };
      compareNote.textContent = `${CYCLES} cycles at ${state.pace}× (${speed} m/s), world space: locked ${describe(locked)}; without locking ${describe(free)}.`;
    } catch (error) {
      compareNote.textContent = `foot lock refused: ${(error as Error).message}`;
    }
  }

  function clearLive(): void {
    clearRecording();
    liveFigures = null;
    liveNote.textContent = state.walk ? 'on screen: measuring…' : '';
  }

  function clearRecording(): void {
    samples = 0;
    sinceReadout = 0;
    const n = feet?.feet.length ?? 0;
    if (paths.length !== n) {
      paths = Array.from({ length: n }, () => new Float64Array(capacity * 3));
      planted = Array.from({ length: n }, () => new Uint8Array(capacity));
    }
  }

  /** Starts clip A in place with its contact events at the origin, locked or not (while walking). */
  function restart(): void {
    const { world, eid } = target();
    if (detected === null || feet === null || velocity === null) return;
    root.x = root.z = 0;
    carry = 0;
    setRootTransform(world, eid, root);
    play(world, eid, detected.clip, { layer: 0, weight: 1, speed: 1, time: 0, loop: true });
    stop(world, eid, 1);
    if (state.lock) setFootLock(world, eid, { legs: feet.legs });
    else clearFootLock(world, eid);
    step(world, 0);
    clearLive();
  }

  function set(options: { walk?: boolean; lock?: boolean; pace?: number }): void {
    const { world, eid } = target();
    const wasWalking = state.walk;
    if (options.pace !== undefined) {
      state.pace = options.pace;
      paceSlider.set(options.pace);
      compare();
    }
    if (options.lock !== undefined) {
      state.lock = options.lock;
      lockBox.checked = options.lock;
    }
    if (options.walk !== undefined) {
      state.walk = options.walk && velocity !== null && detected !== null;
      walkBox.checked = state.walk;
    }
    if (state.walk) {
      if (!wasWalking || options.lock !== undefined) restart();
      else clearLive();
    } else if (wasWalking) {
      clearFootLock(world, eid);
      root.x = root.z = 0;
      setRootTransform(world, eid, root);
      clearLive();
      onStop();
    }
  }

  let onStop = (): void => {};

  /** Advances the walking character by `dt` seconds in steps of 1/60 s, moving it and recording its feet. */
  function advance(dt: number): void {
    const { world, eid, clip } = target();
    if (feet === null || detected === null || velocity === null) return;
    carry += dt;
    const h = 1 / LIVE_RATE;
    const layerTime = world.components.Layers.time;
    const slack = 0.5 / clip.frameRate;
    for (let n = 0; n < 6 && carry >= h; n++) {
      carry -= h;
      root.x += state.pace * velocity[0] * h;
      root.z += state.pace * velocity[1] * h;
      let wrapped = false;
      if (root.x * root.x + root.z * root.z > WRAP * WRAP) {
        root.x = root.z = 0; // a teleport: the locks let go, the recording starts over
        wrapped = true;
      }
      steer.x = root.x;
      steer.z = root.z;
      setRootTransform(world, eid, steer);
      step(world, h);
      if (wrapped) clearRecording(); // the last read-out stays until the next
      if (samples === capacity) {
        // Keep the newer half.
        const keep = capacity / 2;
        for (let k = 0; k < paths.length; k++) {
          paths[k]!.copyWithin(0, keep * 3, capacity * 3);
          planted[k]!.copyWithin(0, keep, capacity);
        }
        samples = keep;
      }
      const t = layerTime[eid * world.maxLayers]!;
      for (let k = 0; k < feet.feet.length; k++) {
        getJointWorldMatrix(world, eid, feet.feet[k]!, matrix);
        paths[k]![samples * 3] = matrix[9]!;
        paths[k]![samples * 3 + 1] = matrix[10]!;
        paths[k]![samples * 3 + 2] = matrix[11]!;
        let on = 0;
        for (const interval of detected.contacts[k]!.intervals) if (inside(t, interval, slack)) on = 1;
        planted[k]![samples] = on;
      }
      samples++;
    }
    carry = Math.min(carry, h);
    sinceReadout += dt;
    if (sinceReadout > 0.5) {
      sinceReadout = 0;
      readLive();
    }
  }

  /** The contacts recorded that began and ended inside the recording, measured (world space). */
  function readLive(): void {
    if (feet === null || samples < 2) return;
    const contacts = feet.feet.map((_, k) => {
      const flags = planted[k]!;
      const intervals: [number, number][] = [];
      let start = -1;
      for (let i = 0; i < samples; i++) {
        if (flags[i] && start < 0) start = i;
        if (!flags[i] && start >= 0) {
          if (start > 0 && i - 1 > start) intervals.push([start / LIVE_RATE, (i - 1) / LIVE_RATE]);
          start = -1;
        }
      }
      return { joint: detected!.contacts[k]!.joint, intervals };
    });
    if (contacts.every((c) => c.intervals.length === 0)) return;
    const skate = measureFootSkate({ frameRate: LIVE_RATE, positions: paths.map((p) => p.subarray(0, samples * 3)) }, contacts);
    liveFigures = { ...figures(skate), locked: state.lock, seconds: Number((samples / LIVE_RATE).toFixed(1)) };
    liveNote.textContent = `on screen, ${state.lock ? 'locked' : 'not locked'}, last ${liveFigures.seconds} s (world space): ${describe(liveFigures)}`;
  }

  /** Rings at the feet in the view (filled while planted by clip A's contacts), world space. */
  function drawMarkers(graphics: Graphics, camera: CrowdCamera): void {
    const { world, eid, clip } = target();
    if (feet === null || detected === null) return;
    const t = world.components.Layers.time[eid * world.maxLayers]!;
    const slack = 0.5 / clip.frameRate;
    for (let k = 0; k < feet.feet.length; k++) {
      getJointWorldMatrix(world, eid, feet.feet[k]!, matrix);
      camera.project(matrix[9]!, matrix[10]!, matrix[11]!, point);
      let on = false;
      for (const interval of detected.contacts[k]!.intervals) if (inside(t, interval, slack)) on = true;
      const color = Number.parseInt(COLORS[k % COLORS.length]!.slice(1), 16);
      if (on) graphics.circle(point[0]!, point[1]!, 5).fill({ color });
      else graphics.circle(point[0]!, point[1]!, 5).stroke({ width: 1.5, color });
    }
  }

  return {
    reset,
    restart,
    advance,
    drawMarkers,
    /** Whether the character walks (the panel steps it). */
    walking: (): boolean => state.walk,
    /** The walking character's root position (x, z; 0 0 when it does not walk). */
    root: (): { x: number; z: number } => root,
    /** Called when walking stops: the inspector restores its own playback. */
    onStop(fn: () => void): void {
      onStop = fn;
    },
    api: {
      feet: () => (feet ? [...feet.feet] : []),
      contacts: () => (detected ? detected.contacts.map((c) => c.intervals.map(([s, e]) => [s, e] as [number, number])) : []),
      clipSkate: () => clipSkate,
      compare: () => comparison,
      live: () => liveFigures,
      set,
    } satisfies FeetApi,
  };
}
