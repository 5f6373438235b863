import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  drainEvents,
  getLocalPose,
  getRootTransform,
  setBlendSpace,
  setTargetSpeed,
  spawnCharacter,
  step,
  type AnimationWorld,
  type BlendSpaceSample,
  type Clip,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { createRandom } from '../fixtures/synthetic.js';
import { biped, directionalWalk, runFor } from './locomotion.js';

/** The layer slot (eid × DEFAULT_MAX_LAYERS + layer) playing `clip` on `eid`; throws when none does. */
function slotOf(world: AnimationWorld, eid: number, clip: Clip): number {
  const id = world.assets.clipIds.get(clip);
  for (let layer = 0; layer < DEFAULT_MAX_LAYERS; layer++) if (id !== undefined && world.components.Layers.clip[eid * DEFAULT_MAX_LAYERS + layer] === id) return eid * DEFAULT_MAX_LAYERS + layer;
  throw new Error(`${clip.name} does not play`);
}

const skeleton = biped(1);
// Cycles of 1.0 s, 0.6 s and 1.2 s (30 fps), all walking forward.
const a = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.4, duration: 1.0, name: 'A' });
const b = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.0, duration: 0.6, name: 'B' });
const c = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.8, duration: 1.2, name: 'C' });

describe('setBlendSpace: a clip entering the blend starts at the group phase plus its phaseOffset', () => {
  // Offsets A 0.25, B 0.5, C −0.25 ≡ 0.75.
  const line = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0, phaseOffset: 0.25 }, { clip: b, x: 1, phaseOffset: 0.5 }, { clip: c, x: 2, phaseOffset: -0.25 }] });

  it('hand-derived times of each entering clip, the leader\'s own offset included', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    const { Layers } = world.components;

    // 1. A alone enters a new group at phase 0: time (0 + 0.25) · 1.0 = 0.25 s.
    setBlendSpace(world, eid, line, 0);
    expect(Layers.time[slotOf(world, eid, a)]).toBe(0.25);
    expect(Layers.phaseOffset[slotOf(world, eid, a)]).toBe(0.25);

    // 2. 0.3 s at rate 1, group cycle 1.0 s (A alone): A at 0.55 s, so the group phase is
    //    φ = 0.55 / 1.0 − 0.25 = 0.3.
    runFor(world, 0.3);
    expect(Layers.time[slotOf(world, eid, a)]).toBeCloseTo(0.55, 9);

    // 3. x = 0.5: A stays where it is; B enters at ((0.3 + 0.5) mod 1) · 0.6 = 0.48 s.
    setBlendSpace(world, eid, line, 0.5);
    expect(Layers.time[slotOf(world, eid, a)]).toBeCloseTo(0.55, 9);
    expect(Layers.time[slotOf(world, eid, b)]).toBeCloseTo(0.48, 9);
    expect(Layers.phaseOffset[slotOf(world, eid, b)]).toBe(0.5);

    // 4. 0.4 s more; group cycle 0.5 · 1.0 + 0.5 · 0.6 = 0.8 s, so φ = 0.3 + 0.4 / 0.8 = 0.8:
    //    A at ((0.8 + 0.25) mod 1) · 1.0 = 0.05 s, B at ((0.8 + 0.5) mod 1) · 0.6 = 0.18 s.
    runFor(world, 0.4);
    expect(Layers.time[slotOf(world, eid, a)]).toBeCloseTo(0.05, 9);
    expect(Layers.time[slotOf(world, eid, b)]).toBeCloseTo(0.18, 9);

    // 5. x = 1.5: A leaves, B stays, C enters at ((0.8 + 0.75) mod 1) · 1.2 = 0.66 s.
    setBlendSpace(world, eid, line, 1.5);
    expect(() => slotOf(world, eid, a)).toThrow();
    expect(Layers.time[slotOf(world, eid, b)]).toBeCloseTo(0.18, 9);
    expect(Layers.time[slotOf(world, eid, c)]).toBeCloseTo(0.66, 9);

    // 6. The offsets hold while they play: 0.27 s at group cycle 0.5 · 0.6 + 0.5 · 1.2 = 0.9 s
    //    is 0.3 of a cycle, φ = 0.1: B at 0.6 · 0.6 = 0.36 s, C at 0.85 · 1.2 = 1.02 s (to
    //    float32 rounding of the layer speeds 0.6 / 0.9 and 1.2 / 0.9, ~1e-8 relative).
    runFor(world, 0.27);
    expect(Layers.time[slotOf(world, eid, b)]).toBeCloseTo(0.36, 7);
    expect(Layers.time[slotOf(world, eid, c)]).toBeCloseTo(1.02, 7);
  });

  it('unsynced, an entering clip starts at its offset × its duration', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    const { Layers } = world.components;
    setBlendSpace(world, eid, line, 0.5, undefined, { sync: false });
    expect(Layers.time[slotOf(world, eid, a)]).toBe(0.25 * 1.0);
    expect(Layers.time[slotOf(world, eid, b)]).toBe(0.5 * b.duration);
    expect(Layers.syncGroup[slotOf(world, eid, b)]).toBe(-1);
  });

  it('a clip kept from a space with another offset for it re-enters at the new offset', () => {
    const other = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0 }, { clip: b, x: 1 }] }); // A at offset 0
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    const { Layers } = world.components;
    setBlendSpace(world, eid, other, 0);
    runFor(world, 0.3); // A at 0.3 s: φ = 0.3
    setBlendSpace(world, eid, line, 0); // A at offset 0.25 here: (0.3 + 0.25) · 1.0
    expect(Layers.time[slotOf(world, eid, a)]).toBeCloseTo(0.55, 9);
    expect(Layers.phaseOffset[slotOf(world, eid, a)]).toBe(0.25);
    // Same space again: kept as it is.
    runFor(world, 0.1);
    setBlendSpace(world, eid, line, 0);
    expect(Layers.time[slotOf(world, eid, a)]).toBeCloseTo(0.65, 9);
  });

  it('an offset of half a cycle makes a clip that starts on the other foot step with the first', () => {
    // A steps with the left foot at phase 0.25, the right at 0.75; B starts on the other
    // foot: left at 0.75, right at 0.25. With B's offset 0.5 both left feet land at group
    // phase 0.25 (B's phase 0.25 + 0.5), in the same frame; without it, half a cycle apart.
    const walkA = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.4, duration: 1.0, name: 'A', events: [{ time: 0.25 * 1.0, name: 'left' }] });
    const walkB = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.0, duration: 0.6, name: 'B', events: [{ time: 0.75 * 0.6, name: 'left' }] });
    for (const [offset, apart] of [[0.5, 0], [0, 0.5]] as const) {
      const space = createBlendSpace({ type: '1d', samples: [{ clip: walkA, x: 0 }, { clip: walkB, x: 1, phaseOffset: offset }] });
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      setBlendSpace(world, eid, space, 0);
      runFor(world, 0.1);
      setBlendSpace(world, eid, space, 0.5); // B enters; group cycle 0.8 s from here
      const fired = new Map<string, number[]>([['A', []], ['B', []]]);
      let frame = 0;
      runFor(world, 4, 1 / 100, undefined, () => {
        for (const event of drainEvents(world)) fired.get(event.clip.name)!.push(frame);
        frame++;
      });
      const fa = fired.get('A')!, fb = fired.get('B')!;
      expect(fa.length).toBeGreaterThanOrEqual(4);
      // Frames between matching left steps: 0 in phase (the same frame), else half of the
      // 80-frame cycle (to a frame: each fires in the frame that crosses its time).
      const gaps = fa.map((f) => Math.min(...fb.map((g) => Math.abs(g - f))));
      for (const gap of gaps.slice(0, -1)) {
        if (apart === 0) expect(gap).toBe(0);
        else expect(Math.abs(gap - apart * 80)).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('setBlendSpace: phase offsets of 0 change nothing', () => {
  it('an entering clip\'s time is exactly φ · D with φ = time_L / D_L − offset_L mod 1 (the formula before offsets)', () => {
    const space = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0 }, { clip: b, x: 1 }, { clip: c, x: 2 }] });
    const random = createRandom(3);
    for (let trial = 0; trial < 20; trial++) {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      const { Layers } = world.components;
      setBlendSpace(world, eid, space, 0);
      runFor(world, 0.05 + 3 * random(), 1 / 60 + random() / 30);
      const la = slotOf(world, eid, a);
      let phase = Layers.time[la]! / a.duration - Layers.phaseOffset[la]!;
      phase -= Math.floor(phase);
      setBlendSpace(world, eid, space, 0.5 + random() * 0.49); // A leads, B enters
      expect(Layers.time[slotOf(world, eid, b)]).toBe(phase * b.duration);
    }
  });

  it('omitted, 0, 1 and −3 give the same poses, layers and travel bit for bit over a random run', () => {
    const samples = (offset: number | undefined): BlendSpaceSample[] =>
      [a, b, c].map((clip, i) => (offset === undefined ? { clip, x: i } : { clip, x: i, phaseOffset: offset }));
    const runs = [undefined, 0, 1, -3].map((offset) => {
      const space = createBlendSpace({ type: '1d', samples: samples(offset) });
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      const random = createRandom(9);
      const record: number[] = [];
      for (let f = 0; f < 300; f++) {
        setBlendSpace(world, eid, space, 2 * random());
        if (f === 20) setTargetSpeed(world, eid, 1.3);
        step(world, 1 / 240 + random() / 20);
        record.push(...getLocalPose(world, eid), ...Object.values(getRootTransform(world, eid)), ...world.components.Layers.time.subarray(eid * DEFAULT_MAX_LAYERS, (eid + 1) * DEFAULT_MAX_LAYERS));
      }
      return record;
    });
    for (const run of runs.slice(1)) {
      expect(run.length).toBe(runs[0]!.length);
      expect(run.every((v, i) => Object.is(v, runs[0]![i]))).toBe(true);
    }
  });
});
