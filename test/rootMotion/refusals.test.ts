import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  play,
  setBlendSpace,
  setTargetSpeed,
  spawnCharacter,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { getRootTrack, DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { refused } from '../fixtures/errors.js';
import { biped, directionalWalk } from './locomotion.js';

/**
 * A looping 1 s clip of `skeleton` (hips 1 m up) at 40 fps whose hips sit at (x(u), 1, z(u)),
 * u = f / 40 the cycle fraction.
 */
function rootPath(skeleton: Skeleton, name: string, x: (u: number) => number, z: (u: number) => number): Clip {
  const frames: number[] = [];
  for (let f = 0; f <= 40; f++) {
    const u = f / 40;
    frames.push(x(u), 1, z(u), 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: 40, frames, loop: true, name });
}

/** Every layer array and the root-motion state of `world`, to show a refusal changed nothing. */
function snapshot(world: AnimationWorld): string {
  const { Layers, RootMotion } = world.components;
  return JSON.stringify([Layers.clip, Layers.speed, Layers.syncRate, Layers.weight, RootMotion.targetSpeed, RootMotion.cycleMeasure].map((a) => Array.from(a)));
}

const clipSkeleton = biped(1);
// Sways 0.5 mm sideways (farthest at u = ¼) and creeps 0.01 mm forward per cycle: an idle.
const sway = rootPath(clipSkeleton, 'sway', (u) => 0.0005 * Math.sin(2 * Math.PI * u), (u) => 0.00001 * u);
// Out 3 m at mid-cycle and back to 0.5 mm from the start: the seed's cycle that comes back.
const comesBack = rootPath(clipSkeleton, 'comes back', () => 0, (u) => (u <= 0.5 ? 6 * u : 3 - (3 - 0.0005) * (2 * u - 1)));
// Out 1.5 mm at mid-cycle, back to 1.2 mm.
const short = rootPath(clipSkeleton, 'short', () => 0, (u) => (u <= 0.5 ? 0.003 * u : 0.0015 - 0.0003 * (2 * u - 1)));

describe("setTargetSpeed(…, { cycle: 'max' }) refuses cycles under 1 mm", () => {
  it('refuses an idle whose farthest travel is 0.5 mm (it was accepted at ~×3200 and never moved)', () => {
    // Before: farthest 0.5 mm per 1 s cycle, so rate 1.6 / 0.0005 = 3200 for 1.6 m/s, and the
    // character moved 0.01 mm per cycle.
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, clipSkeleton, { rootMotion: true });
    play(world, eid, sway);
    const before = snapshot(world);
    const error = refused(() => setTargetSpeed(world, eid, 1.6, { cycle: 'max' }));
    expect(error.message).toBe(
      'setTargetSpeed: clip "sway" travels under 1 mm per cycle (farthest 0.5 mm from its start), so no playback rate can give it a speed: play it in place',
    );
    expect(snapshot(world)).toBe(before);
  });

  it('refuses a cycle that goes out 3 m and ends 0.5 mm from its start: it has no direction', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, clipSkeleton, { rootMotion: true });
    play(world, eid, comesBack);
    const error = refused(() => setTargetSpeed(world, eid, 1.6, { cycle: 'max' }));
    expect(error.message).toBe(
      'setTargetSpeed: clip "comes back" ends its cycle 0.5 mm from where it started (under 1 mm; farthest 3000 mm), so its travel has no direction and no playback rate can give it a speed: play it in place',
    );
    // 'net': 0.5 mm per cycle is over the 1 µm/s floor, but under 5 % of the 1 m hips (50 mm):
    // an in-place clip that drifts, refused at any speed with the fix.
    for (const speed of [1.6, 0.4]) {
      expect(refused(() => setTargetSpeed(world, eid, speed)).message).toBe(
        'setTargetSpeed: clip "comes back" travels 0.5 mm per cycle on this character, under 5 % of its hip height (50 mm of 1 m): it is an in-place clip whose root drifts, '
        + 'and a target speed would play it far too fast with the feet sliding. Give it the travel of its planted feet with rootMotionFromFeet(clip, { feet }) (docs/in-place-clips.md), or play it without a target speed',
      );
    }
  });

  it('1.5 mm out and 1.2 mm back: under 1 mm on hips half as high; over it, still under 5 % of the hips', () => {
    // Hips 0.5 m: ratio 0.5, so 0.75 mm out and 0.6 mm at the end on the character: refused by
    // the 1 mm floor. Own size (hip ratio 1), or hipScaling: false: farthest 1.5 mm per cycle,
    // over the floor but under 5 % of the hips (50 mm, 25 mm): refused as drift.
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
    const own = spawnCharacter(world, clipSkeleton, { rootMotion: true });
    const small = spawnCharacter(world, biped(0.5), { rootMotion: true });
    const unscaled = spawnCharacter(world, biped(0.5), { rootMotion: true });
    play(world, own, short);
    play(world, small, short);
    play(world, unscaled, short, { hipScaling: false });
    expect(refused(() => setTargetSpeed(world, own, 0.3, { cycle: 'max' })).message).toMatch(
      /^setTargetSpeed: clip "short" travels 1\.5 mm per cycle on this character, under 5 % of its hip height \(50 mm of 1 m\): .*rootMotionFromFeet/,
    );
    const error = refused(() => setTargetSpeed(world, small, 0.3, { cycle: 'max' }));
    expect(error.message).toBe(
      'setTargetSpeed: clip "short" travels under 1 mm per cycle (farthest 0.75 mm from its start), so no playback rate can give it a speed: play it in place',
    );
    expect(refused(() => setTargetSpeed(world, unscaled, 0.3, { cycle: 'max' })).message).toMatch(
      /^setTargetSpeed: clip "short" travels 1\.5 mm per cycle on this character, under 5 % of its hip height \(25 mm of 0\.5 m\)/,
    );
    expect(world.components.Layers.speed[own * DEFAULT_MAX_LAYERS]).toBe(1); // nothing changed
  });

  it('refuses a sideways clip restricted to forward travel: 0.5 mm of it per cycle is left', () => {
    // 1 m along X and 0.5 mm along Z per 1 s cycle; 'forward' keeps Z. Farthest 1.0000001 m in
    // the direction (1, 0.0005) of its net travel, of which Z is 0.5 mm.
    const sideways = rootPath(clipSkeleton, 'sideways', (u) => u, (u) => 0.0005 * u);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, clipSkeleton, { rootMotion: true });
    play(world, eid, sideways, { rootAxis: 'forward' });
    expect(refused(() => setTargetSpeed(world, eid, 1, { cycle: 'max' })).message).toBe(
      'setTargetSpeed: clip "sideways" travels under 1 mm per cycle along its axis (0.5 mm), so no playback rate can give it a speed: play it in place',
    );
  });

  it('a blend space that moves onto its idle keeps its rate instead of spinning the idle', () => {
    // The walk alone (x = 1): rate = 1.2 m/s ÷ (its farthest distance per 1 s cycle). At
    // x = 0 the idle alone travels under 1 mm, so the rate stays (before: ×3200 or so).
    const walk = directionalWalk(clipSkeleton, 1, { dirX: 0, dirZ: 1, distance: 1.4, duration: 1, name: 'walk' });
    const line = createBlendSpace({ type: '1d', samples: [{ clip: sway, x: 0 }, { clip: walk, x: 1 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, clipSkeleton, { rootMotion: true });
    setBlendSpace(world, eid, line, 1);
    setTargetSpeed(world, eid, 1.2, { cycle: 'max' });
    const { Layers } = world.components;
    const rate = Layers.syncRate[eid * DEFAULT_MAX_LAYERS]!;
    expect(rate).toBeCloseTo(1.2 / getRootTrack(walk).maxDistance, 5);
    setBlendSpace(world, eid, line, 0);
    const idle = world.assets.clipIds.get(sway)!;
    let li = eid * DEFAULT_MAX_LAYERS;
    while (Layers.clip[li] !== idle) li++;
    expect(Layers.syncRate[li]).toBe(rate);
  });
});

describe('setTargetSpeed error messages read as sentences', () => {
  const skeleton = biped(1);
  const still = rootPath(skeleton, 'walk', () => 0, () => 0);
  const forward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1, duration: 1, name: 'forward' });
  const backward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: -1, distance: 1, duration: 1, name: 'backward' });
  const left = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 1, duration: 1, name: 'left' });

  function message(setup: (world: AnimationWorld, eid: number) => void, cycle: 'net' | 'max' = 'net'): string {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    setup(world, eid);
    return refused(() => setTargetSpeed(world, eid, 1, { cycle })).message;
  }

  it('no weighted clip (was "clip no weighted clip have no net travel per cycle")', () => {
    expect(message(() => {})).toBe('setTargetSpeed: eid 1 plays no weighted clip, so no playback rate can give it a speed: play a clip that travels first');
    expect(message((world, eid) => play(world, eid, forward, { weight: 0 }))).toBe(
      'setTargetSpeed: eid 1 plays no weighted clip, so no playback rate can give it a speed: play a clip that travels first',
    );
  });

  it('one clip, and blends of two and three whose travel cancels', () => {
    expect(message((world, eid) => play(world, eid, still))).toBe(
      'setTargetSpeed: clip "walk" has no net travel per cycle, so no playback rate can give it a speed: play it in place',
    );
    const opposite = (world: AnimationWorld, eid: number) => {
      play(world, eid, forward, { layer: 0, weight: 0.5 });
      play(world, eid, backward, { layer: 1, weight: 0.5 });
    };
    expect(message(opposite)).toBe(
      'setTargetSpeed: clips "forward" and "backward" together have no net travel per cycle, so no playback rate can give them a speed: play them in place',
    );
    expect(message(opposite, 'max')).toBe(
      'setTargetSpeed: clips "forward" and "backward" together travel under 1 mm per cycle (0 mm), so no playback rate can give them a speed: play them in place',
    );
    expect(
      message((world, eid) => {
        opposite(world, eid);
        play(world, eid, left, { layer: 2, weight: 0.5, rootAxis: 'forward' }); // sideways travel cut
      }),
    ).toBe('setTargetSpeed: clips "forward", "backward" and "left" together have no net travel per cycle, so no playback rate can give them a speed: play them in place');
  });

  it('bad arguments', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, forward);
    expect(refused(() => setTargetSpeed(world, eid, -2)).message).toBe('setTargetSpeed: metersPerSecond is -2: must be a finite number ≥ 0 and ≤ 3.4e38 (m/s, the Float32 range)');
    expect(refused(() => setTargetSpeed(world, eid, 1, { cycle: 'mean' as 'net' })).message).toBe("setTargetSpeed: cycle is mean: must be 'net' or 'max'");
    expect(refused(() => setTargetSpeed(world, eid, 1, null as never)).message).toBe('setTargetSpeed: options is null: must be an object (or omitted)');
  });
});

describe('setBlendSpace error messages read as sentences', () => {
  it('a space that needs layers past the last one', () => {
    const skeleton = biped(1);
    const walk = (name: string) => directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1, duration: 1, name });
    const grid = createBlendSpace({ type: 'bilinear', samples: [{ clip: walk('a'), x: 0, y: 0 }, { clip: walk('b'), x: 1, y: 0 }, { clip: walk('c'), x: 0, y: 1 }, { clip: walk('d'), x: 1, y: 1 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    // 4 layers from layer 1 are layers 1 … 4; with the default maxLayers (DEFAULT_MAX_LAYERS = 4) the last is 3.
    expect(refused(() => setBlendSpace(world, eid, grid, 0, 0, { layer: 1 })).message).toBe(
      `setBlendSpace: layer is 1: a 'bilinear' space needs 4 layers, 1 to 4, and the last layer is ${DEFAULT_MAX_LAYERS - 1}`
      + ` (the world's maxLayers is 4; createAnimationWorld({ maxLayers }) allows up to 16)`,
    );
  });
});
