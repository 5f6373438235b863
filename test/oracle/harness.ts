/**
 * Runs bitanim and three.js side by side on the same raw skeleton and clips, advancing both by
 * the same dt sequence, and measures how far bitanim's skin palette is from three's
 * `Skeleton.boneMatrices` at each requested time.
 */
import * as THREE from 'three';
import {
  AnimationError,
  createAnimationWorld,
  createSkeleton,
  getSkinPalette,
  play,
  spawnCharacter,
  step,
  type Clip,
  type KernelChoice,
  type Skeleton,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { axisAngle, createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import {
  buildThreeClip, buildThreeRig, comparePalette, describeDiff, distanceFromIdentity, evaluateThree, ticksBetween,
  type PaletteDiff, type RawClip, type RawSkeleton,
} from './threeRig.js';

/** A skeleton as bitanim holds it and the raw data three is built from. */
export interface OracleSkeleton {
  readonly label: string;
  readonly raw: RawSkeleton;
  readonly skeleton: Skeleton;
}

/** A clip as bitanim holds it and the raw data three is built from. */
export interface OracleClip {
  readonly raw: RawClip;
  readonly clip: Clip;
}

/** One layer of a run: the clip, its weight, and whether it loops (default: the clip's flag). */
export interface OracleLayer {
  readonly clip: OracleClip;
  readonly weight: number;
  readonly loop?: boolean;
}

/** The measurement at one time. */
export interface OracleSample {
  readonly time: number;
  readonly diff: PaletteDiff;
  /** Largest |palette − identity|: the pose is really away from the bind pose. */
  readonly motion: number;
  /** Largest |bitanim layer time − three action time| over the layers, seconds. */
  readonly timeGap: number;
  readonly message: string;
}

/**
 * `syntheticSkeleton(24)`: its rest pose is given to three as raw data (the skeleton's stored
 * rest is the caller's input, quaternions already unit).
 */
export function synthetic24(): OracleSkeleton {
  const skeleton = syntheticSkeleton(24);
  return {
    label: 'synthetic24',
    raw: { names: skeleton.names, parents: Array.from(skeleton.parents), rest: Array.from(skeleton.rest) },
    skeleton,
  };
}

/**
 * A hand-built 40-joint skeleton with a 28-joint spine chain (the deepest path), two 6-joint
 * branches off it, ~12 cm offsets, rest rotations up to ~0.4 rad and mildly non-uniform rest
 * scales (so the bind matrices are not rigid and their inverses are general 3×4 inverses).
 */
export function deepChain40(): OracleSkeleton {
  const random = createRandom(4242);
  const names: string[] = [];
  const parents: number[] = [];
  const spine = 28;
  for (let j = 0; j < spine; j++) {
    names.push(j === 0 ? 'pelvis' : `spine${j}`);
    parents.push(j - 1);
  }
  for (const [branch, from] of [['left', 10], ['right', 20]] as const) {
    for (let k = 0; k < 6; k++) {
      names.push(`${branch}${k}`);
      parents.push(k === 0 ? from : names.length - 2);
    }
  }
  const rest: number[] = [];
  for (let j = 0; j < names.length; j++) {
    const v = [random() - 0.5, random() - 0.5, random() - 0.5];
    const n = Math.hypot(v[0]!, v[1]!, v[2]!);
    const q = axisAngle(v[0]! / n, v[1]! / n, v[2]! / n, 0.4 * random());
    const scale = j % 5 === 3 ? [0.95 + 0.1 * random(), 0.95 + 0.1 * random(), 0.95 + 0.1 * random()] : [1, 1, 1];
    rest.push(
      j === 0 ? 0 : 0.04 * (random() - 0.5), j === 0 ? 0.9 : 0.12, j === 0 ? 0 : 0.04 * (random() - 0.5),
      ...q,
      ...scale,
    );
  }
  return { label: 'deepChain40', raw: { names, parents, rest }, skeleton: createSkeleton({ names, parents, rest }) };
}

/** A synthetic looping clip (fixture defaults: 30 fps, amplitude 0.6 rad) and its raw frames. */
export function oracleClip(s: OracleSkeleton, options: Parameters<typeof syntheticClip>[1]): OracleClip {
  const clip = syntheticClip(s.skeleton, options);
  return { clip, raw: { name: clip.name, frameRate: clip.frameRate, frames: Array.from(clip.frames) } };
}

/**
 * How the three.js side combines its actions:
 * - `'mixer'`: three's own `AnimationMixer` (rotations by slerp across actions);
 * - `'nlerp'`: the mixer only advances the action times; each clip is sampled at its action's
 *   time by three's own track interpolants, and the samples are combined here by normalized
 *   weights — T and S by weighted mean, Q by the normalized weighted sum flipped into the first
 *   one's hemisphere (DESIGN §1's nlerp) — then posed on the bones. This is the control that
 *   checks bitanim's weighting at unequal weights, which equal weights cannot (a weight swap or
 *   a dropped normalization is invisible at 0.5/0.5).
 */
export type ThreeMix = 'mixer' | 'nlerp';

/** The kernels every oracle runs on (issue 18: the three.js oracles pass on both paths). */
export const ORACLE_KERNELS: readonly Exclude<KernelChoice, 'auto'>[] = ['js', 'wasm'];

/** A world on `kernels`, checked to run them (`kernels: 'wasm'` refuses to fall back). */
export function oracleWorld(maxEntities: number, maxJoints: number, kernels: Exclude<KernelChoice, 'auto'>): ReturnType<typeof createAnimationWorld> {
  const world = createAnimationWorld({ maxEntities, maxJoints, kernels });
  if (world.kernels !== kernels) throw new AnimationError('oracleWorld', [{ path: 'kernels', message: `asked ${kernels}, runs ${world.kernels}` }]);
  return world;
}

/**
 * Plays `layers` (layer n on bitanim layer n and as the n-th three action, all from time 0),
 * advances both runtimes through `times` (ascending, seconds) with identical 1/60 s ticks, and
 * compares the palettes at each time, bitanim on `kernels`. Logs one line per time.
 */
export function runOracle(
  s: OracleSkeleton, layers: readonly OracleLayer[], times: readonly number[], tag: string, mix: ThreeMix = 'mixer',
  kernels: Exclude<KernelChoice, 'auto'> = 'js',
): OracleSample[] {
  const jointCount = s.skeleton.jointCount;
  const world = oracleWorld(4, jointCount, kernels);
  tag = `${tag} [${kernels}]`;
  const eid = spawnCharacter(world, s.skeleton);
  const rig = buildThreeRig(s.raw);
  const actions: THREE.AnimationAction[] = [];
  const interpolants: THREE.Interpolant[][] = [];
  layers.forEach((layer, n) => {
    const loop = layer.loop ?? layer.clip.clip.loop;
    play(world, eid, layer.clip.clip, { layer: n, weight: layer.weight, loop });
    const threeClip = buildThreeClip(s.raw.names, layer.clip.raw);
    // The tracks' default (InterpolateLinear) interpolants; QuaternionKeyframeTrack overrides
    // this factory with its slerp QuaternionLinearInterpolant — the ones the mixer uses.
    interpolants.push(threeClip.tracks.map((track) => track.InterpolantFactoryMethodLinear()));
    const action = rig.mixer.clipAction(threeClip);
    action.setLoop(loop ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
    action.clampWhenFinished = !loop; // a clamped bitanim layer holds its last frame
    action.setEffectiveWeight(layer.weight);
    action.play();
    actions.push(action);
  });

  const samples: OracleSample[] = [];
  let now = 0;
  for (const time of times) {
    for (const dt of ticksBetween(now, time)) {
      step(world, dt);
      rig.mixer.update(dt);
    }
    now = time;
    if (mix === 'nlerp') poseByNlerp(rig.bones, layers, actions, interpolants);
    const palette = getSkinPalette(world, eid);
    const diff = comparePalette(palette, evaluateThree(rig), jointCount);
    let timeGap = 0;
    for (let n = 0; n < layers.length; n++) {
      timeGap = Math.max(timeGap, Math.abs(world.components.Layers.time[eid * DEFAULT_MAX_LAYERS + n]! - actions[n]!.time));
    }
    const clipTimes = layers.map((_, n) => world.components.Layers.time[eid * DEFAULT_MAX_LAYERS + n]!.toFixed(4)).join('/');
    const message = `[oracle] ${tag} ${s.label} t=${time} (clip times ${clipTimes}): ${describeDiff(diff, s.raw.names)}`;
    console.log(message);
    samples.push({ time, diff, motion: distanceFromIdentity(palette, jointCount), timeGap, message });
  }
  return samples;
}

/**
 * Poses `bones` with the nlerp mix of the actions' samples (see {@link ThreeMix}). Track order
 * per joint is position, quaternion, scale (`buildThreeClip`).
 */
function poseByNlerp(
  bones: readonly THREE.Bone[], layers: readonly OracleLayer[], actions: readonly THREE.AnimationAction[],
  interpolants: readonly THREE.Interpolant[][],
): void {
  let total = 0;
  for (const layer of layers) total += layer.weight;
  for (let j = 0; j < bones.length; j++) {
    const t = new Float64Array(3), q = new Float64Array(4), sc = new Float64Array(3);
    let first: number[] | null = null;
    for (let n = 0; n < layers.length; n++) {
      const w = layers[n]!.weight / total;
      const time = actions[n]!.time;
      const p = Array.from(interpolants[n]![3 * j]!.evaluate(time));
      const r = Array.from(interpolants[n]![3 * j + 1]!.evaluate(time));
      const k = Array.from(interpolants[n]![3 * j + 2]!.evaluate(time));
      if (first === null) first = r;
      const sign = r[0]! * first[0]! + r[1]! * first[1]! + r[2]! * first[2]! + r[3]! * first[3]! < 0 ? -1 : 1;
      for (let c = 0; c < 3; c++) {
        t[c] += w * p[c]!;
        sc[c] += w * k[c]!;
      }
      for (let c = 0; c < 4; c++) q[c] += w * sign * r[c]!;
    }
    bones[j]!.position.set(t[0]!, t[1]!, t[2]!);
    bones[j]!.quaternion.set(q[0]!, q[1]!, q[2]!, q[3]!).normalize();
    bones[j]!.scale.set(sc[0]!, sc[1]!, sc[2]!);
  }
}
