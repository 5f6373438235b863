/**
 * Issue 15 item 1, the other side of the bounds: every API number at the edge of its range,
 * then the longest steps, keeps every pose, matrix and root transform finite. (Values past
 * the bounds are refused: ranges.test.ts.)
 */
import { expect, it } from 'vitest';
import * as B from './allEntries.js';
/** One joint: translation, rotation (x y z w), unit scale. */
const pose = (x: number, y: number, z: number, q = [0, 0, 0, 1]) => [x, y, z, ...q, 1, 1, 1];
it('numbers at their bounds, then steps of 1/60 s and MAX_DT, leave everything finite', () => {
  const names = ['hips', 'spine', 'head', 'arm', 'fore', 'hand'];
  const parents = [-1, 0, 1, 1, 3, 4];
  const rest = [...pose(0, 1, 0), ...pose(0, 0.3, 0), ...pose(0, 0.3, 0), ...pose(0.2, 0.2, 0), ...pose(0.3, 0, 0), ...pose(0.3, 0, 0)];
  const skeleton = B.createSkeleton({ names, parents, rest });
  const frames: number[] = [];
  for (let f = 0; f <= 4; f++) {
    const a = f / 4 * Math.PI;
    for (let j = 0; j < 6; j++) frames.push(...pose(rest[j * 10]!, rest[j * 10 + 1]!, rest[j * 10 + 2]! + (j === 0 ? f / 4 : 0), j === 3 ? [0, 0, Math.sin(a / 2), Math.cos(a / 2)] : [0, Math.sin(a / 4), 0, Math.cos(a / 4)]));
  }
  // hips (1 m/cycle along +Z) → spine → head, spine → arm → fore → hand; the arm swings half a
  // turn and every other joint turns a quarter about Y over the cycle. At 65,536 fps and at 4 fps.
  const clip = B.createClip({ skeleton, frameRate: 65536, frames, events: [{ time: 0, name: 'x' }] });
  const clip2 = B.createClip({ skeleton, frameRate: 4, frames, events: [{ time: 0, name: 'x' }] });
  const results: string[] = [];
  const check = (label: string, setup: (w: B.AnimationWorld, e: number) => void) => {
    const world = B.createAnimationWorld({ maxEntities: 4, maxJoints: 8 });
    const eid = B.spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true });
    try { setup(world, eid); } catch (e) { results.push(`${label}: setup threw ${e}`); return; }
    for (const dt of [1 / 60, B.MAX_DT, 1 / 60, B.MAX_DT, 0]) {
      try { B.step(world, dt); } catch (e) { results.push(`${label}: step threw ${e}`); return; }
    }
    const ok = [B.getLocalPose(world, eid), B.getSkinPalette(world, eid), B.getModelMatrices(world, eid)].every((a) => Array.from(a).every(Number.isFinite));
    const r = B.getRootTransform(world, eid);
    results.push(`${label}: pose ${ok ? 'finite' : 'NaN/Inf'} root ${[r.x, r.y, r.z, r.yaw].every(Number.isFinite) ? 'finite' : 'BAD'}`);
  };
  const M = B.FLOAT32_MAX;
  check('max speed clip', (w, e) => B.play(w, e, clip, { speed: 1000 }));
  check('max speed backward', (w, e) => B.play(w, e, clip, { speed: -1000 }));
  check('weights 1000 x4 + additive 1000', (w, e) => { for (let l = 0; l < 3; l++) B.play(w, e, clip2, { layer: l, weight: 1000, speed: l + 1 }); B.play(w, e, clip2, { layer: 3, weight: 1000, additive: true, referenceTime: 0.3 }); });
  check('additive 1000 only', (w, e) => { B.play(w, e, clip2, { layer: 0, weight: 1000, additive: true, referenceTime: 0.3 }); });
  check('root at max', (w, e) => { B.play(w, e, clip2, { speed: 1000 }); B.setRootTransform(w, e, { x: M, z: M, yaw: M }); });
  check('follower accel max + lookAt + reach', (w, e) => { B.play(w, e, clip2); B.setLookAt(w, e, { joint: 'head' }); B.setReach(w, e, { upper: 'arm', lower: 'fore', end: 'hand', slot: 1 } as never); B.setFollowTarget(w, e, M, M, -M); B.setFollowTargetVelocity(w, e, M, M, M); B.setFollowTargetAcceleration(w, e, M, -M, M); });
  check('follower tiny interval moving', (w, e) => { B.setFollower(w, e, { interval: B.MIN_DURATION, duration: B.MIN_DURATION }); B.setFollowTargetVelocity(w, e, 1, 1, 1); B.setLookAt(w, e, { joint: 'head' }); });
  check('follower long', (w, e) => { B.setFollower(w, e, { interval: B.MAX_DURATION, duration: B.MAX_DURATION, integrator: 'euler' }); B.setFollowTarget(w, e, M, M, M); B.setLookAt(w, e, { joint: 'head' }); });
  check('transition spring min', (w, e) => { B.play(w, e, clip2, { speed: 1000 }); B.step(w, 1 / 60); B.transition(w, e, clip, { duration: B.MIN_DURATION, mode: 'spring', halfLife: B.MIN_DURATION }); });
  check('transition max crossfade', (w, e) => { B.play(w, e, clip2, { speed: 1000 }); B.step(w, 1 / 60); B.transition(w, e, clip, { duration: B.MAX_DURATION, mode: 'crossfade', curve: 'minjerk' }); });
  check('transition inertialize min', (w, e) => { B.play(w, e, clip2, { speed: -1000 }); B.step(w, 1 / 60); B.transition(w, e, clip, { duration: B.MIN_DURATION }); });
  check('lod camera far', (w, e) => { B.play(w, e, clip2); B.setRootTransform(w, e, { x: -M }); B.setLodCamera(w, M, M, M, { velocity: { x: M, y: M, z: M } }); B.setLod(w, e, { levels: 2, distances: [M], updateEvery: [1, 4] }); });
  check('lod motion', (w, e) => { B.play(w, e, clip2, { speed: 1000 }); B.setLod(w, e, { levels: 3, mode: 'motion', speeds: [B.FLOAT32_MIN_NORMAL, M] } as never); });
  check('blend space extreme', (w, e) => { const s = B.createBlendSpace({ type: 'freeform', samples: [{ clip: clip2, x: -M, y: -M }, { clip, x: M, y: -M }, { clip: clip2, x: 0, y: M }] }); B.setBlendSpace(w, e, s, M, -M); B.setTargetSpeed(w, e, 0.5); });
  check('sync group max', (w, e) => { B.play(w, e, clip, { syncGroup: 0, speed: 1000, weight: 1000 }); B.play(w, e, clip2, { layer: 1, syncGroup: 0, weight: 0.001, phaseOffset: 1e300 }); });
  check('target speed max rate', (w, e) => { B.play(w, e, clip); B.setTargetSpeed(w, e, 0.999 * 1000 * 65536 / 4); });
  expect(results.filter((r) => !r.endsWith('pose finite root finite'))).toEqual([]);
  expect(results).toHaveLength(16);
});
