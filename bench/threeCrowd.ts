/**
 * The same crowd animated the usual three.js way: per character a Bone hierarchy under its own
 * root Object3D, a Skeleton, and an AnimationMixer playing the two clips as AnimationActions.
 * A frame is `mixer.update` for every character (sample both clips and mix them),
 * `scene.updateMatrixWorld()` (local → model for every bone) and `skeleton.update()` for every
 * character (palette = bone world matrix × bone inverse), each phase timed on its own.
 */
import * as THREE from 'three';
import { buildThreeClip, buildThreeRig } from '../test/fixtures/threeRig.js';
import type { CrowdRunner } from './measure.js';
import { LAYER_COUNT, type CrowdPlan } from './plan.js';

/** A three.js crowd; see {@link createThreeCrowd}. */
export interface ThreeCrowd extends CrowdRunner {
  /** Skinning palette of character `index` (`jointCount × 16`, 4×4 column-major). */
  palette(index: number): Float32Array;
}

/**
 * Builds the plan's characters in one Scene: bones in the rest pose, a Skeleton whose inverses
 * are taken from that pose (so a palette is model × inverse bind, as in bitanim), and a mixer
 * with one action per layer carrying the plan's weight, speed and start time. Character roots
 * stay at the origin, so world space is model space and palettes compare with bitanim's.
 */
export function createThreeCrowd(plan: CrowdPlan): ThreeCrowd {
  const { skeleton, count } = plan;
  // Keys are kept as they are (no `optimize()`), so three.js interpolates the data bitanim samples.
  const clips = plan.clips.map((clip) => buildThreeClip(skeleton.names, clip));
  const scene = new THREE.Scene();
  const mixers: THREE.AnimationMixer[] = [];
  const skeletons: THREE.Skeleton[] = [];

  for (let i = 0; i < count; i++) {
    const { container, skeleton: boneSkeleton, mixer } = buildThreeRig(skeleton);
    scene.add(container);
    skeletons.push(boneSkeleton);
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      const action = mixer.clipAction(clips[layer]!);
      action.setLoop(THREE.LoopRepeat, Infinity);
      action.setEffectiveWeight(plan.weights[layer]!);
      action.setEffectiveTimeScale(plan.speed[k]!);
      action.time = plan.startTime[k]!;
      action.play();
    }
    mixers.push(mixer);
  }

  return {
    label: 'three.js',
    phaseNames: ['mixer.update', 'updateMatrixWorld', 'skeleton.update'],
    palette(index) {
      const matrices = skeletons[index]!.boneMatrices;
      if (matrices === null) throw new Error(`three.js skeleton ${index} has no boneMatrices`);
      return matrices;
    },
    frame(dt, phaseMs) {
      const t0 = performance.now();
      for (let i = 0; i < mixers.length; i++) mixers[i]!.update(dt);
      const t1 = performance.now();
      scene.updateMatrixWorld();
      const t2 = performance.now();
      for (let i = 0; i < skeletons.length; i++) skeletons[i]!.update();
      const t3 = performance.now();
      phaseMs[0] += t1 - t0;
      phaseMs[1] += t2 - t1;
      phaseMs[2] += t3 - t2;
    },
  };
}
