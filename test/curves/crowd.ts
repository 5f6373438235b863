/**
 * A crowd with float curves for the whole-frame tests (stepParallel vs step, wasm vs JS, no
 * allocation) and the bench: a 16-joint synthetic skeleton with 8 curves, clips animating 6 of
 * them each (different ones, so defaults show), characters on one or two override layers, some
 * with an additive layer, some with motion LOD (reduced levels keep their curves, keyed), and
 * transitions of all three modes while it runs (`drive`).
 */
import {
  createClip, createSkeleton, play, registerLodLevels, setLod, setLodCamera, spawnCharacter, transition,
  type AnimationWorld, type Clip, type Skeleton,
} from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

export const CURVES = 8;

/** A synthetic skeleton of `jointCount` joints with `curves` curves (defaults c / 10). */
export function curvedSkeleton(jointCount = 16, curves = CURVES): Skeleton {
  const s = syntheticSkeleton(jointCount);
  return createSkeleton({
    names: s.names, parents: s.parents, rest: s.rest,
    curves: Array.from({ length: curves }, (_, c) => ({ name: `curve${c}`, default: c / 10 })),
  });
}

/** `syntheticClip` with curves: curve c (skipping `skip` and `skip + 1`) a wave of its own phase. */
export function curvedClip(skeleton: Skeleton, seed: number, skip: number): Clip {
  const base = syntheticClip(skeleton, { seed, name: `clip${seed}` });
  const n = base.frameCount;
  const curves = skeleton.curves
    .map((curve, c) => ({ c, name: curve.name }))
    .filter(({ c }) => c !== skip && c !== skip + 1)
    .map(({ c, name }) => ({ name, values: Array.from({ length: n }, (_, f) => 0.5 + 0.5 * Math.sin((2 * Math.PI * f) / (n - 1) + seed + c)) }));
  return createClip({ skeleton, frameRate: base.frameRate, frames: base.frames, loop: true, name: base.name, curves });
}

export interface CurveCrowd {
  readonly skeleton: Skeleton;
  readonly clips: Clip[];
  readonly eids: number[];
}

/** Spawns `count` characters into `world` and starts their layers (see the file header). */
export function spawnCurveCrowd(world: AnimationWorld, count: number, options: { lod?: boolean; additive?: boolean } = {}): CurveCrowd {
  const skeleton = curvedSkeleton();
  const clips = [0, 1, 2, 3].map((k) => curvedClip(skeleton, 2 + k, 2 * k));
  if (options.lod !== false) {
    for (const clip of clips) registerLodLevels(world, clip, [clip, reduceClip(clip, { tolerance: 0.01, curveTolerance: 0.01 })]);
    setLodCamera(world, 0, 0, 0);
  }
  const random = createRandom(11);
  const eids: number[] = [];
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, skeleton, { x: (i % 50) * 2, z: Math.floor(i / 50) * 2 });
    play(world, eid, clips[i % 4]!, { time: random() });
    if (i % 3 === 0) play(world, eid, clips[(i + 1) % 4]!, { layer: 1, weight: 0.3 + 0.4 * random(), time: random() });
    if (options.additive !== false && i % 5 === 0) play(world, eid, clips[(i + 2) % 4]!, { layer: 2, weight: 0.5, additive: true, reference: clips[i % 4]! });
    if (options.lod !== false && i % 4 === 1) setLod(world, eid, { levels: 2, distances: [20] });
    eids.push(eid);
  }
  return { skeleton, clips, eids };
}

/** Frame `frame`'s transitions: every 20 frames a sixth of the crowd switches, by mode in turn. */
export function drive(world: AnimationWorld, crowd: CurveCrowd, frame: number): void {
  if (frame % 20 !== 5) return;
  const round = (frame - 5) / 20;
  const modes = [{ duration: 0.3 }, { duration: 0.4, mode: 'spring' as const }, { duration: 0.25, mode: 'crossfade' as const }];
  for (let i = round % 6; i < crowd.eids.length; i += 6) {
    transition(world, crowd.eids[i]!, crowd.clips[(i + round) % 4]!, modes[(i + round) % 3]!);
  }
}
