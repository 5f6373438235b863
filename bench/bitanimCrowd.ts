/**
 * The crowd animated by bitanim: one world, every character playing the plan's two clips on
 * layers 0 and 1. A frame is exactly what `step` runs — the world's frame table
 * (`world.frame`, src/frame.ts) — with each system timed on its own.
 */
import { createAnimationWorld, getSkinPalette, play, spawnCharacter, step, type AnimationWorld, type KernelChoice } from '../src/index.js';
import { beginFrame, endFrame } from '../src/kernels.js';
import type { CrowdRunner } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, type CrowdPlan } from './plan.js';

/** Spawns the plan's characters in `world`, each playing both clips (layer l: `clips[l]`, its weight, speed and start time); returns their entity ids. */
export function spawnPlan(world: AnimationWorld, plan: CrowdPlan): Int32Array {
  const eids = new Int32Array(plan.count);
  for (let i = 0; i < plan.count; i++) {
    const eid = spawnCharacter(world, plan.skeleton);
    eids[i] = eid;
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, plan.clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }
  return eids;
}

/** A bitanim crowd; see {@link createBitanimCrowd}. */
export interface BitanimCrowd extends CrowdRunner {
  readonly world: AnimationWorld;
  /** Entity id of each character of the plan. */
  readonly eids: Int32Array;
  /** Live skinning palette of character `index` (`jointCount × 12`, 3×4 column-major). */
  palette(index: number): Float32Array;
}

/**
 * Creates a world sized for the plan and spawns its characters, playing both clips.
 * `mode` 'systems' runs and times each system of the frame table over the whole crowd in
 * turn; 'step' times `step`, which runs the same systems chunk by chunk (what a game calls).
 * `kernels` and `threads` as `createAnimationWorld`'s ('auto' kernels run WebAssembly where built;
 * bench/parallel.ts passes threads — the runner itself calls `step`); `transactionalFrames` as the world option.
 */
export function createBitanimCrowd(plan: CrowdPlan, mode: 'systems' | 'step' = 'systems', kernels: KernelChoice = 'auto', threads: number | 'auto' = 1, transactionalFrames = false): BitanimCrowd {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, kernels, threads, transactionalFrames });
  const eids = spawnPlan(world, plan);
  const palette = (index: number): Float32Array => getSkinPalette(world, eids[index]!);
  if (mode === 'step') {
    return {
      label: `bitanim step (${world.kernels === 'wasm' ? 'wasm' : 'JS'})`,
      phaseNames: ['step'],
      world,
      eids,
      palette,
      frame(dt, phaseMs) {
        const t0 = performance.now();
        step(world, dt);
        phaseMs[0] += performance.now() - t0;
      },
    };
  }
  const systems = world.frame.systems;
  return {
    label: 'bitanim systems',
    phaseNames: systems.map((system) => system.name),
    world,
    eids,
    palette,
    frame(dt, phaseMs) {
      const count = beginFrame(world);
      for (let s = 0; s < systems.length; s++) {
        const t0 = performance.now();
        systems[s]!.entities(world, dt, 0, count);
        phaseMs[s] += performance.now() - t0;
      }
      endFrame(world, dt);
    },
  };
}
