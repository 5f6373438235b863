/**
 * Issue 15, failures 1 and 2 of the Why (and item 7): no step that never returns, no silent NaN
 * from a number that is finite in Float64 but not in Float32. Each call runs under the
 * watchdog (test/hardening/watchdog.ts): before issue 15 the hanging ones never returned, so
 * their test would have failed as 'hung' instead of stalling CI.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DT, MAX_PLAYBACK_RATE } from '../../src/kernels.js';
import { PRELUDE } from './prelude.js';
import { guarded } from './watchdog.js';

const REFUSED = 'AnimationError: ';

describe('failure 1: step returns whatever dt and speed (watchdog)', () => {
  it('step(w, 1e16) on a looping clip with events is refused at once: dt above MAX_DT', async () => {
    // Before: accepted; the per-cycle event loop ran to 1.5e17 cycles and stopped advancing at
    // 2⁵³ (c + 1 === c), so step never returned.
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(30));
      return refusal(() => B.step(world, 1e16));`);
    expect(result).toEqual({
      outcome: 'returned',
      value: `${REFUSED}step: dt is 1e16: must be a finite number ≥ 0 and ≤ 1000000 (seconds; the longest step, MAX_DT)`,
    });
  });

  it('play(…, { speed: 1e18 }) is refused: the rate is above MAX_PLAYBACK_RATE', async () => {
    // Before: accepted, and the next 1/60 s step hung in the event loop (1e16 cycles).
    const result = await guarded(`${PRELUDE}
      const refused = refusal(() => B.play(world, eid, walk(30), { speed: 1e18 }));
      B.step(world, 1 / 60);
      return [refused, world.components.Layers.clip[eid * B.DEFAULT_MAX_LAYERS], finitePose()];`);
    expect(result).toEqual({
      outcome: 'returned',
      value: [`${REFUSED}play: speed is 1e18: must be a finite number within ±1000 (the fastest playback rate, MAX_PLAYBACK_RATE)`, -1, true],
    });
  });

  it('setTargetSpeed(w, e, 1e30) is refused, naming the speed, the travel and the rate it would take', async () => {
    // Before: rate 1e30 / (1 m / (2/30 s)) = 6.7e28, stored in Float32, and the next step hung.
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(30));
      return refusal(() => B.setTargetSpeed(world, eid, 1e30));`);
    // Travel at rate 1: 1 m per 2/30 s cycle = 15 m/s, so 1e30 m/s needs 6.67e28×; 15 km/s at most.
    expect(result).toEqual({
      outcome: 'returned',
      value: `${REFUSED}setTargetSpeed: metersPerSecond is 1e30 m/s, but clip "walk" travels 15 m/s at rate 1 on this character, so it would play at 6.66667e28×, above the fastest playback rate MAX_PLAYBACK_RATE = 1000×: ask for at most 15000 m/s, or play a clip that travels`,
    });
  });

  it('a follower sampling a moving target every 1e-300 s is refused: interval below MIN_DURATION', async () => {
    // Before: accepted; one 1 s step counted 1e300 target instants, merged all but 64 of them,
    // and the rounding left in the remaining seconds (~1e-16 s) took ~1e284 more samples: the
    // step never returned. Intervals of at least 1 µs leave under one sample of rounding even
    // in the longest step.
    const result = await guarded(`${PRELUDE}
      const refused = refusal(() => B.setFollower(world, eid, { interval: 1e-300 }));
      B.setFollower(world, eid, { interval: B.MIN_DURATION });
      B.setFollowTargetVelocity(world, eid, 1, 0, 0);
      B.step(world, 1);
      B.step(world, B.MAX_DT);
      const p = B.getFollowPosition(world, eid);
      return [refused, [p.x, p.y, p.z].every(Number.isFinite)];`);
    expect(result).toEqual({
      outcome: 'returned',
      value: [`${REFUSED}setFollower: interval is 1e-300: must be a finite number ≥ 0.000001 and ≤ 1000000 (seconds)`, true],
    });
  });

  it('a layer written past the API to 1e18× returns in one 1/60 s step, with the overflow counted', async () => {
    // The event computation itself, beyond what the API lets through: a speed of 1e18 written
    // straight into the Float32 component. Before: the per-cycle loop hung (1.5e16 cycles).
    // Now the last ⌈4096 / 2⌉ + 1 cycles are visited and the rest counted as dropped.
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(30));
      world.components.Layers.speed[eid * B.DEFAULT_MAX_LAYERS] = 1e18;
      B.step(world, 1 / 60);
      return [world.events.count, world.events.dropped, Math.fround(1e18), finitePose()];`);
    expect(result.outcome).toBe('returned');
    const [count, dropped, speed, finite] = (result as { value: [number, number, number, boolean] }).value;
    expect(count).toBe(4096); // the queue is full
    // 2 events per cycle of D = 2/30 s over speed / 60 seconds of clip time.
    const crossings = 2 * Math.floor(speed / 60 / (2 / 30));
    expect(Math.abs(count + dropped - crossings) / crossings).toBeLessThan(1e-12);
    expect(finite).toBe(true);
  });

  it('the longest step at the fastest rate on the highest-rate clip: 3.3e13 cycles, exact counts, finite root', async () => {
    // 2 frames at 65536 fps: D = 2⁻¹⁵ s exactly. 1000 × 1e6 s = 1e9 s of clip time = 1e9 · 2¹⁵
    // = 3.2768e13 cycles, each crossing both events once (the step ends on a cycle boundary,
    // before its events at 0 and D/2 fire again), and moving the hips 1 m.
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(65536), { speed: B.MAX_PLAYBACK_RATE });
      B.step(world, B.MAX_DT);
      return [world.events.count, world.events.dropped, B.getRootTransform(world, eid), finitePose()];`);
    expect(result.outcome).toBe('returned');
    const [count, dropped, root, finite] = (result as { value: [number, number, { x: number; y: number; z: number }, boolean] }).value;
    const cycles = MAX_PLAYBACK_RATE * MAX_DT * 2 ** 15;
    expect(cycles).toBe(3.2768e13);
    expect(count).toBe(4096);
    expect(count + dropped).toBe(2 * cycles);
    expect(root.x).toBe(0);
    expect(Math.abs(root.z / cycles - 1)).toBeLessThan(1e-6);
    expect(finite).toBe(true);
  });
});

describe('failure 2: no Float32 overflow into NaN (watchdog)', () => {
  it('play, setLayerWeight, setTargetSpeed and transition refuse numbers above their bounds; the pose stays finite', async () => {
    // Before: each was accepted (finite in Float64), stored as Infinity in Float32, and the
    // next step made the pose NaN (an inertialize duration of 1e39 made the whole pose NaN).
    const result = await guarded(`${PRELUDE}
      const clip = walk(30);
      B.play(world, eid, clip);
      const refusals = [
        refusal(() => B.play(world, eid, clip, { weight: 1e39 })),
        refusal(() => B.play(world, eid, clip, { speed: 1e39 })),
        refusal(() => B.setLayerWeight(world, eid, 0, 1e39)),
        refusal(() => B.setTargetSpeed(world, eid, 1e39)),
        refusal(() => B.transition(world, eid, clip, { duration: 1e39 })),
        refusal(() => B.transition(world, eid, clip, { duration: 0.2, mode: 'spring', halfLife: 1e39 })),
        refusal(() => B.transition(world, eid, clip, { duration: 1e-300 })),
      ];
      for (let i = 0; i < 30; i++) B.step(world, 1 / 60);
      return [refusals, finitePose()];`);
    expect(result).toEqual({
      outcome: 'returned',
      value: [[
        `${REFUSED}play: weight is 1e39: must be a finite number ≥ 0 and ≤ 1000 (the largest layer weight, MAX_WEIGHT)`,
        `${REFUSED}play: speed is 1e39: must be a finite number within ±1000 (the fastest playback rate, MAX_PLAYBACK_RATE)`,
        `${REFUSED}setLayerWeight: weight is 1e39: must be a finite number ≥ 0 and ≤ 1000 (the largest layer weight, MAX_WEIGHT)`,
        `${REFUSED}setTargetSpeed: metersPerSecond is 1e39: must be a finite number ≥ 0 and ≤ 3.4e38 (m/s, the Float32 range)`,
        `${REFUSED}transition: duration is 1e39: must be a finite number ≥ 0.000001 and ≤ 1000000 (seconds, or 0 to switch at once)`,
        `${REFUSED}transition: halfLife is 1e39: must be a finite number ≥ 0.000001 and ≤ 1000000 (seconds)`,
        // 1e-300 s is 0 in Float32: the decay would divide by it.
        `${REFUSED}transition: duration is 1e-300: must be a finite number ≥ 0.000001 and ≤ 1000000 (seconds, or 0 to switch at once)`,
      ], true],
    });
  });

  it('step(w, 1e300) with root motion is refused; the root stays where it was', async () => {
    // Before: 1e300 s of a 1 m cycle put ~1e301 m (Infinity in the Float32 root delta) into the
    // root: x, z and the pose's root became NaN.
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(30));
      B.step(world, 1 / 60);
      const before = B.getRootTransform(world, eid);
      const refused = refusal(() => B.step(world, 1e300));
      return [refused, before, B.getRootTransform(world, eid), finitePose()];`);
    expect(result.outcome).toBe('returned');
    const [refused, before, after, finite] = (result as { value: [string, object, object, boolean] }).value;
    expect(refused).toBe(`${REFUSED}step: dt is 1e300: must be a finite number ≥ 0 and ≤ 1000000 (seconds; the longest step, MAX_DT)`);
    expect(after).toEqual(before);
    expect(finite).toBe(true);
  });

  it('the longest transitions at their bounds keep the pose finite', async () => {
    const result = await guarded(`${PRELUDE}
      const clip = walk(30);
      B.play(world, eid, walk(20, 0.5, 'other'));
      B.step(world, 0.1);
      B.transition(world, eid, clip, { duration: B.MAX_DURATION });
      for (let i = 0; i < 10; i++) B.step(world, 1 / 60);
      const quintic = finitePose();
      B.transition(world, eid, clip, { duration: B.MIN_DURATION, mode: 'spring', halfLife: B.MIN_DURATION });
      for (let i = 0; i < 10; i++) B.step(world, 1 / 60);
      const spring = finitePose();
      B.step(world, B.MAX_DT);
      return [quintic, spring, finitePose()];`);
    expect(result).toEqual({ outcome: 'returned', value: [true, true, true] });
  });
});

describe('item 7: setTargetSpeed refuses a rate above MAX_PLAYBACK_RATE (watchdog)', () => {
  it('a clip travelling 60 mm per 1 s cycle driven at 100 m/s: refused, naming 1667× and the most it can do', async () => {
    // 60 mm/s × 1000 = 60 m/s is the fastest it can go; 30 m/s plays at 500×. (A clip travelling
    // 2 µm per cycle, which once played at 750,000× for 1.5 m/s, is now refused at any speed:
    // under 5 % of the 1 m hips per cycle, an in-place clip that drifts.)
    const result = await guarded(`${PRELUDE}
      B.play(world, eid, walk(2, 0.06, 'stroll'));
      const refused = refusal(() => B.setTargetSpeed(world, eid, 100));
      B.setTargetSpeed(world, eid, 30);
      const rate = world.components.Layers.speed[eid * B.DEFAULT_MAX_LAYERS];
      B.play(world, eid, walk(2, 2e-6, 'creep'));
      return [refused, rate, refusal(() => B.setTargetSpeed(world, eid, 1.5)), refusal(() => B.setTargetSpeed(world, eid, 0.001))];`);
    expect(result.outcome).toBe('returned');
    const [refused, rate, creep, slow] = (result as { value: [string, number, string, string] }).value;
    expect(refused).toBe(
      `${REFUSED}setTargetSpeed: metersPerSecond is 100 m/s, but clip "stroll" travels 0.06 m/s at rate 1 on this character, so it would play at 1666.67×, above the fastest playback rate MAX_PLAYBACK_RATE = 1000×: ask for at most 60 m/s, or play a clip that travels`,
    );
    expect(Math.abs(rate / 500 - 1)).toBeLessThan(1e-6); // 30 m/s ÷ 60 mm/s
    expect(creep).toMatch(/^AnimationError: setTargetSpeed: clip "creep" travels 0\.002 mm per cycle on this character, under 5 % of its hip height \(50 mm of 1 m\).*rootMotionFromFeet/);
    expect(slow).toBe(creep);
  });
});
