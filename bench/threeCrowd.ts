/**
 * The same crowd animated the usual three.js way: per character a Bone hierarchy under its own
 * root Object3D, a Skeleton, and an AnimationMixer playing the two clips as AnimationActions.
 * A frame is `mixer.update` for every character (sample both clips and mix them),
 * `scene.updateMatrixWorld()` (local → model for every bone) and `skeleton.update()` for every
 * character (palette = bone world matrix × bone inverse), each phase timed on its own.
 */
import * as THREE from 'three';
import type { Clip } from '../src/index.js';
import type { CrowdRunner } from './measure.js';
import { LAYER_COUNT, type CrowdPlan } from './plan.js';

/** A three.js crowd; see {@link createThreeCrowd}. */
export interface ThreeCrowd extends CrowdRunner {
  /** Skinning palette of character `index` (`jointCount × 16`, 4×4 column-major). */
  palette(index: number): Float32Array;
}

/**
 * Converts a bitanim clip to an AnimationClip with a linear track per joint and channel
 * (`<joint>.position`, `.quaternion`, `.scale`), keys at `f / frameRate`. Keys are kept as
 * they are (no `optimize()`), so three.js interpolates the same data bitanim samples.
 */
export function toAnimationClip(clip: Clip): THREE.AnimationClip {
  const { frames, frameCount, frameRate, skeleton } = clip;
  const jointCount = skeleton.jointCount;
  const times = new Float32Array(frameCount);
  for (let f = 0; f < frameCount; f++) times[f] = f / frameRate;
  const tracks: THREE.KeyframeTrack[] = [];
  for (let j = 0; j < jointCount; j++) {
    const position = new Float32Array(frameCount * 3);
    const quaternion = new Float32Array(frameCount * 4);
    const scale = new Float32Array(frameCount * 3);
    for (let f = 0; f < frameCount; f++) {
      const p = (f * jointCount + j) * 10;
      position.set(frames.subarray(p, p + 3), f * 3);
      quaternion.set(frames.subarray(p + 3, p + 7), f * 4);
      scale.set(frames.subarray(p + 7, p + 10), f * 3);
    }
    const name = skeleton.names[j]!;
    tracks.push(
      new THREE.VectorKeyframeTrack(`${name}.position`, times, position),
      new THREE.QuaternionKeyframeTrack(`${name}.quaternion`, times, quaternion),
      new THREE.VectorKeyframeTrack(`${name}.scale`, times, scale),
    );
  }
  return new THREE.AnimationClip(clip.name, clip.duration, tracks);
}

/**
 * Builds the plan's characters in one Scene: bones in the rest pose, a Skeleton whose inverses
 * are taken from that pose (so a palette is model × inverse bind, as in bitanim), and a mixer
 * with one action per layer carrying the plan's weight, speed and start time. Character roots
 * stay at the origin, so world space is model space and palettes compare with bitanim's.
 */
export function createThreeCrowd(plan: CrowdPlan): ThreeCrowd {
  const { skeleton, count } = plan;
  const jointCount = skeleton.jointCount;
  const clips = plan.clips.map(toAnimationClip);
  const scene = new THREE.Scene();
  const mixers: THREE.AnimationMixer[] = [];
  const skeletons: THREE.Skeleton[] = [];

  for (let i = 0; i < count; i++) {
    // Not named like a joint, so track names resolve to bones below it.
    const root = new THREE.Object3D();
    root.name = 'character';
    const bones: THREE.Bone[] = [];
    for (let j = 0; j < jointCount; j++) {
      const bone = new THREE.Bone();
      bone.name = skeleton.names[j]!;
      const r = j * 10;
      const rest = skeleton.rest;
      bone.position.set(rest[r]!, rest[r + 1]!, rest[r + 2]!);
      bone.quaternion.set(rest[r + 3]!, rest[r + 4]!, rest[r + 5]!, rest[r + 6]!);
      bone.scale.set(rest[r + 7]!, rest[r + 8]!, rest[r + 9]!);
      const parent = skeleton.parents[j]!;
      (parent < 0 ? root : bones[parent]!).add(bone);
      bones.push(bone);
    }
    scene.add(root);
    root.updateMatrixWorld(true);
    const boneSkeleton = new THREE.Skeleton(bones);
    boneSkeleton.calculateInverses();
    skeletons.push(boneSkeleton);

    const mixer = new THREE.AnimationMixer(root);
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
