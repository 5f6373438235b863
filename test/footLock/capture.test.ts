/**
 * Foot locking on motion capture: CMU 131_01 (start, walk, stop) made in place and moved by the
 * test at 1.2× the capture's own travel, so that without locking each planted ankle slides by a
 * fifth of the body's travel over its contact. Contacts are the travelling capture's own
 * (detectFootContacts, ankles); skate is measured in world space over them.
 */
import { describe, expect, it } from 'vitest';
import { detectFootContacts, humanoidMap, parseBvh, type Clip } from '../../src/index.js';
import { readAssetText } from '../support/assets.js';
import { inPlace, runWalk, type WalkRun } from './helpers.js';

const SCALE = 0.056444; // the CMU files' inches-per-unit × 0.0254 (test/offline/footContacts.test.ts)

function capture(file: string, name: string) {
  const { skeleton, clip } = parseBvh(readAssetText(file), { scale: SCALE, name });
  const contacts = detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] });
  const still = inPlace(contacts.clip);
  const map = humanoidMap(skeleton).joints;
  const joint = (n: string | undefined) => skeleton.names.indexOf(n!);
  const legs = (['left', 'right'] as const).map((side, k) => ({
    upper: joint(map[`${side}UpperLeg`]), lower: joint(map[`${side}LowerLeg`]), foot: joint(map[`${side}Foot`]),
    intervals: contacts.contacts[k]!.intervals,
  }));
  return { skeleton, clip: still.clip, travel: still.travel, legs, original: clip as Clip };
}

function hipHeight(clip: Clip): number {
  return clip.skeleton.hipHeight > 0 ? clip.skeleton.hipHeight : 0.88;
}

describe('CMU 131_01 walk in place, moved at 1.2× its travel', () => {
  const walk = capture('cmu_131_01_start_walk_stop.bvh', 'walk');
  const run = (lock: boolean): WalkRun => runWalk({
    skeleton: walk.skeleton, clip: walk.clip, frames: walk.clip.frameCount, legs: walk.legs, lock: lock ? {} : null,
    at: (f) => [1.2 * walk.travel[f * 2]!, 1.2 * walk.travel[f * 2 + 1]!],
  });
  const locked = run(true), free = run(false);
  const hips = 0.88;

  it('the default legs are the ankles detectFootContacts marked', () => {
    expect(walk.legs.map((l) => walk.skeleton.names[l.foot])).toEqual(['LeftAnkle', 'RightAnkle']);
  });

  it('skate per contact ≤ 0.5 % of the hip height, ≥ 80 % below the run without locking; knees within 30°; finite', () => {
    console.log(`CMU walk 1.2×: skate mean ${(locked.skate.mean * 1000).toFixed(2)} mm, max ${(locked.skate.max * 1000).toFixed(2)} mm over ${locked.skate.contacts} contacts; without locking mean ${(free.skate.mean * 1000).toFixed(1)} mm, max ${(free.skate.max * 1000).toFixed(1)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°`);
    console.log(locked.skate.feet.map((f) => f.distances.map((d) => (d * 1000).toFixed(1)).join(' ')).join(' | '));
    console.log(free.skate.feet.map((f) => f.distances.map((d) => (d * 1000).toFixed(1)).join(' ')).join(' | '));
    expect(locked.finite).toBe(true);
    expect(locked.skate.contacts).toBeGreaterThanOrEqual(8);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.005 * hips);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.2 * free.skate.mean);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});
