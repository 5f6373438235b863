/**
 * footLockSystem on a small rig (rig.ts) and the contact tables: values derived by hand.
 * A locked foot stays on its lock; the release decays by the minimum-jerk curve over
 * blendTime from the offset at release; weight 0 and no lock leave the pose bit for bit; the
 * contact share of blended layers; the ease-in; other characters untouched.
 */
import { describe, expect, it } from 'vitest';
import {
  clearFootLock, createAnimationWorld, createClip, createMask, getJointWorldMatrix, getLocalPose, play, setFootLock, setRootTransform,
  spawnCharacter, step, type AnimationWorld, type Clip,
} from '../../src/index.js';
import { buildFootContactTable, contactKey } from '../../src/assets/footContactTable.js';
import { minJerk } from '../../src/math/minJerk.js';
import { FRAMES, legClip, legRig, RATE } from './rig.js';

const skeleton = legRig();
const FOOT_L = skeleton.names.indexOf('footL');
const LEGS = { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }, { upper: 'thighR', lower: 'shinR', foot: 'footR' }] };

/** Two characters playing `clip`, moved along +Z at `speed` m/s; the first with `lock` (null: none). */
function pair(clip: Clip, lock: Parameters<typeof setFootLock>[2] | null): { world: AnimationWorld; eid: number; free: number } {
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: skeleton.jointCount, kernels: 'js' });
  const eid = spawnCharacter(world, skeleton), free = spawnCharacter(world, skeleton);
  play(world, eid, clip, { loop: false });
  play(world, free, clip, { loop: false });
  if (lock !== null) setFootLock(world, eid, lock);
  return { world, eid, free };
}

function footWorld(world: AnimationWorld, eid: number, joint = FOOT_L): [number, number, number] {
  const m = getJointWorldMatrix(world, eid, joint, new Float64Array(12));
  return [m[9]!, m[10]!, m[11]!];
}

describe('contact tables (built with the clip)', () => {
  it('a clamped clip: frames from footDown to footUp inclusive; a footUp first closes a contact open from frame 0; unmarked joints have no row', () => {
    const table = buildFootContactTable([
      { time: 0.1, name: 'footUp:a' }, { time: 0.3, name: 'footDown:a' }, { time: 0.5, name: 'footUp:a' },
      { time: 0.2, name: 'step' }, { time: 0.62, name: 'footDown:b' },
    ].sort((x, y) => x.time - y.time), 9, 10, false)!;
    expect(table.names).toEqual(['a', 'b']);
    expect(Array.from(table.keys)).toEqual([contactKey('a'), contactKey('b')]);
    expect(table.frames).toBe(9);
    // a: open at 0 (its first marker is a footUp) through frame 1; frames 3–5. b: from frame 6 (0.62 s rounds to 6) to the end.
    expect(Array.from(table.flags.subarray(0, 9))).toEqual([1, 1, 0, 1, 1, 1, 0, 0, 0]);
    expect(Array.from(table.flags.subarray(9, 18))).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(buildFootContactTable([{ time: 0, name: 'step' }], 9, 10, false)).toBeNull();
  });

  it('a looping clip: 10 distinct frames of 11 (the seam is frame 0), a contact over the seam wraps', () => {
    const table = buildFootContactTable([{ time: 0.2, name: 'footUp:a' }, { time: 0.8, name: 'footDown:a' }], 11, 10, true)!;
    expect(table.frames).toBe(10);
    expect(Array.from(table.flags)).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 1, 1]);
  });

  it('createClip builds it from the events, and keys differ for the rig\'s feet', () => {
    const clip = legClip(skeleton);
    expect(clip.contacts!.names).toEqual(['footL', 'footR']);
    expect(Array.from(clip.contacts!.flags.subarray(0, FRAMES))).toEqual(Array.from({ length: FRAMES }, (_, f) => (f <= 14 ? 1 : 0)));
    expect(contactKey('footL')).not.toBe(contactKey('footR'));
    expect(createClip({ skeleton, frameRate: 30, frames: clip.frames.subarray(0, 70) }).contacts).toBeNull();
  });
});

describe('footLockSystem on the rig', () => {
  const clip = legClip(skeleton);
  /** Runs `frames` frames, the characters moved at `speed` m/s along +Z before each step. */
  function run(world: AnimationWorld, eids: number[], frames: number, speed: number, each?: (f: number) => void): void {
    for (let f = 0; f < frames; f++) {
      for (const e of eids) setRootTransform(world, e, { z: speed * (f / RATE) });
      step(world, f === 0 ? 0 : 1 / RATE);
      each?.(f);
    }
  }

  it('the planted foot stays on its lock (its position at contact start), horizontally, while the animated one slides', () => {
    const { world, eid, free } = pair(clip, LEGS);
    let start: [number, number, number] | null = null;
    let slid = 0, held = 0;
    run(world, [eid, free], 15, 0.6, (f) => {
      const p = footWorld(world, eid), a = footWorld(world, free);
      if (f === 0) {
        start = p;
        expect(p).toEqual(a); // L = p = a at the first frame of contact
        return;
      }
      held = Math.max(held, Math.hypot(p[0] - start![0], p[2] - start![2]));
      slid = Math.max(slid, Math.hypot(a[0] - start![0], a[2] - start![2]));
      expect(p[1]).toBeCloseTo(a[1], 5); // its height is the animation's
    });
    // The animated foot moves 0.6 m/s − its slide (0.2 m in 14 frames = 0.43 m/s) forward: 0.08 m by frame 14.
    expect(slid).toBeGreaterThan(0.07);
    expect(held).toBeLessThan(1e-5);
  });

  it('the release decays the offset by the minimum-jerk curve over blendTime, from its value at release', () => {
    const blendTime = 0.2;
    const { world, eid, free } = pair(clip, { ...LEGS, blendTime });
    const offset = world.components.FootLock.offset;
    const r = eid * 4;
    let release: number[] = [];
    run(world, [eid, free], FRAMES, 0.6, (f) => {
      if (f === 14) release = [offset[r * 3]!, offset[r * 3 + 1]!, offset[r * 3 + 2]!];
      if (f <= 14) return;
      const tau = (f - 15) / RATE; // released on frame 15 (the contact ended after frame 14)
      const k = 1 - minJerk(tau / blendTime);
      const p = footWorld(world, eid), a = footWorld(world, free);
      expect(p[2] - a[2], `frame ${f}`).toBeCloseTo(release[2]! * k, 4);
      expect(p[0] - a[0], `frame ${f}`).toBeCloseTo(release[0]! * k, 4);
    });
    expect(Math.abs(release[2]!)).toBeGreaterThan(0.05);
  });

  it('weight 0, no lock, or a cleared lock leave LocalPose bit for bit; another character\'s pose is untouched', () => {
    for (const setup of ['weight 0', 'none', 'cleared'] as const) {
      const { world, eid, free } = pair(clip, setup === 'none' ? null : { ...LEGS, weight: setup === 'weight 0' ? 0 : 1 });
      run(world, [eid, free], 10, 0.6);
      if (setup === 'cleared') clearFootLock(world, eid);
      run(world, [eid, free], 10, 0.6);
      expect(Array.from(getLocalPose(world, eid)), setup).toEqual(Array.from(getLocalPose(world, free)));
    }
    // Locked: its pose differs, the other character's is the animation's (a third, lone twin).
    const { world, eid, free } = pair(clip, LEGS);
    const lone = pair(clip, null);
    run(world, [eid, free], 10, 0.6);
    run(lone.world, [lone.eid], 10, 0.6);
    expect(Array.from(getLocalPose(world, eid))).not.toEqual(Array.from(getLocalPose(world, free)));
    expect(Array.from(getLocalPose(world, free))).toEqual(Array.from(getLocalPose(lone.world, lone.eid)));
  });

  it('weight w applies w × the offset', () => {
    const { world, eid, free } = pair(clip, { ...LEGS, weight: 0.5 });
    const full = pair(clip, LEGS);
    run(world, [eid, free], 12, 0.6);
    run(full.world, [full.eid, full.free], 12, 0.6);
    const a = footWorld(world, free), half = footWorld(world, eid), one = footWorld(full.world, full.eid);
    expect(half[2] - a[2]).toBeCloseTo(0.5 * (one[2] - a[2]), 4);
  });

  it('easeIn: the lock\'s weight comes in by the minimum-jerk curve, p = (1 − s)·a + s·L from a free start', () => {
    const easeIn = 0.2;
    const { world, eid, free } = pair(clip, { ...LEGS, easeIn });
    let L: [number, number, number] | null = null;
    run(world, [eid, free], 12, 0.6, (f) => {
      const p = footWorld(world, eid), a = footWorld(world, free);
      if (f === 0) { L = p; return; }
      const s = minJerk(f / RATE / easeIn);
      expect(p[2], `frame ${f}`).toBeCloseTo((1 - s) * a[2] + s * L![2], 4);
    });
  });

  it('layers: planted when the weighted share of layers in contact is at least ½ (a layer whose clip has no markers counts as not in contact)', () => {
    const bare = createClip({ skeleton, frameRate: RATE, frames: clip.frames, loop: false, name: 'bare' });
    for (const [marked, expected] of [[0.6, 1], [0.4, 0]] as const) {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, clip, { loop: false, weight: marked });
      play(world, eid, bare, { loop: false, layer: 1, weight: 1 - marked });
      setFootLock(world, eid, LEGS);
      step(world, 0);
      expect(world.components.FootLock.locked[eid * 4], `share ${marked}`).toBe(expected);
    }
  });

  it('a masked layer counts by its mask\'s weight of the foot: an upper-body layer does not dilute the legs\' contact', () => {
    const bare = createClip({ skeleton, frameRate: RATE, frames: clip.frames, loop: false, name: 'bare' });
    const upper = createMask(skeleton, { hips: 1 }, { descendants: false }); // the hips only: the legs weigh 0
    for (const [mask, expected] of [[upper, 1], [undefined, 0]] as const) {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, clip, { loop: false, weight: 0.4 });
      play(world, eid, bare, mask === undefined ? { loop: false, layer: 1, weight: 1 } : { loop: false, layer: 1, weight: 1, mask });
      setFootLock(world, eid, LEGS);
      step(world, 0);
      expect(world.components.FootLock.locked[eid * 4], mask === undefined ? 'unmasked: 0.4 / 1.4' : 'masked: 0.4 / 0.4').toBe(expected);
    }
  });

  it('after a release by distance the foot does not lock again until its offset is back within the replant radius', () => {
    // Moved fast (3 m/s), the lock falls 0.3 leg lengths behind within the contact and is let go.
    const { world, eid } = pair(clip, LEGS);
    const { locked, hold, offset } = world.components.FootLock;
    const r = eid * 4;
    const seen: string[] = [];
    run(world, [eid], 14, 3, () => {
      const o = Math.hypot(offset[r * 3]!, offset[r * 3 + 2]!);
      const before = seen[seen.length - 1];
      seen.push(`${locked[r]}${hold[r]}`);
      if (hold[r] === 1) expect(locked[r]).toBe(0);
      // Locked again (in the same contact) only once the offset is within the replant radius, 0.1 leg lengths.
      if (locked[r] === 1 && before === '01') expect(o).toBeLessThanOrEqual(0.1 * 0.87 + 1e-9);
    });
    expect(seen).toContain('01');
    expect(seen[0]).toBe('10');
  });
});
