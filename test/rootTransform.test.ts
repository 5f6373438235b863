import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  getModelMatrices,
  getRootTransform,
  play,
  setRootTransform,
  spawnCharacter,
  step,
} from '../src/index.js';
import { refused } from './fixtures/errors.js';
import { biped, directionalWalk } from './rootMotion/locomotion.js';

/** A walk along model +Z: 1.5 m per 1 s cycle (at whole cycles the sway and surge are back to 0). */
function setup(rootMotion: boolean) {
  const skeleton = biped(1);
  const walk = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 1.5, duration: 1 });
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
  const other = spawnCharacter(world, skeleton, { x: 9, z: 9, rootMotion });
  const eid = spawnCharacter(world, skeleton, { x: 1, y: 0.5, z: 2, yaw: 0.25, rootMotion });
  play(world, eid, walk);
  return { world, eid, other };
}

/** Steps exactly one second in steps of 1/64 s (binary-exact, so whole cycles end on the seam). */
function oneSecond(world: ReturnType<typeof setup>['world']): void {
  for (let n = 0; n < 64; n++) step(world, 1 / 64);
}

describe('setRootTransform', () => {
  it('places a character without root motion; omitted fields keep their values', () => {
    const { world, eid, other } = setup(false);
    setRootTransform(world, eid, { x: -3, z: 4.5 });
    expect(getRootTransform(world, eid)).toEqual({ x: -3, y: 0.5, z: 4.5, yaw: 0.25 });
    setRootTransform(world, eid, { yaw: -1, y: 0 });
    expect(getRootTransform(world, eid)).toEqual({ x: -3, y: 0, z: 4.5, yaw: -1 });
    setRootTransform(world, eid, {});
    expect(getRootTransform(world, eid)).toEqual({ x: -3, y: 0, z: 4.5, yaw: -1 });
    oneSecond(world); // without root motion it stays where it was put
    expect(getRootTransform(world, eid)).toEqual({ x: -3, y: 0, z: 4.5, yaw: -1 });
    expect(getRootTransform(world, other)).toEqual({ x: 9, y: 0, z: 9, yaw: 0 });
  });

  it('steers a walker: after a turn to yaw π/2 its next cycle goes along +X', () => {
    const { world, eid } = setup(true);
    setRootTransform(world, eid, { yaw: 0 });
    oneSecond(world); // one cycle along +Z
    let at = getRootTransform(world, eid);
    expect(at.x).toBeCloseTo(1, 5);
    expect(at.z).toBeCloseTo(2 + 1.5, 5);
    setRootTransform(world, eid, { yaw: Math.PI / 2 }); // face +X: x' = x cos ψ + z sin ψ
    oneSecond(world);
    at = getRootTransform(world, eid);
    expect(at.x).toBeCloseTo(1 + 1.5, 5);
    expect(at.z).toBeCloseTo(3.5, 5);
    expect(at.yaw).toBe(Math.PI / 2);
  });

  it('teleports a walker, which walks on from there; the pose is not touched', () => {
    const { world, eid } = setup(true);
    setRootTransform(world, eid, { yaw: 0 });
    step(world, 1 / 64);
    const pose = Float32Array.from(getModelMatrices(world, eid));
    setRootTransform(world, eid, { x: 5, z: -3 });
    expect(getModelMatrices(world, eid)).toEqual(pose);
    expect(getRootTransform(world, eid)).toEqual({ x: 5, y: 0.5, z: -3, yaw: 0 });
    for (let n = 1; n < 64; n++) step(world, 1 / 64);
    oneSecond(world);
    // From the teleport (after 1/64 s of the cycle) to 2 s: the rest of cycle 1 plus cycle 2.
    const walked = 2 * 1.5 - travelAt(1 / 64);
    expect(getRootTransform(world, eid).z).toBeCloseTo(-3 + walked, 5);
  });

  it('refuses a field that is not a finite Float32 number, naming it, and changes nothing', () => {
    const { world, eid } = setup(true);
    const before = getRootTransform(world, eid);
    for (const [field, value, says] of [
      ['x', Number.NaN, 'x is NaN: must be a finite number'],
      ['y', Infinity, 'y is Infinity: must be a finite number'],
      ['z', 1e39, 'z is 1e+39: must lie within the Float32 range'],
      ['yaw', '1', 'yaw is "1": must be a finite number'],
    ] as const) {
      // A valid field beside the bad one is not written either.
      const e = refused(() => setRootTransform(world, eid, { x: 7, [field]: value } as never));
      expect(e.issues[0]!.path).toBe(field);
      expect(e.message).toContain(`setRootTransform: ${says}`);
      expect(getRootTransform(world, eid)).toEqual(before);
    }
    expect(refused(() => setRootTransform(world, eid, null as never)).issues[0]!.path).toBe('transform');
    expect(refused(() => setRootTransform(world, 3, { x: 0 })).message).toContain('eid 3 is not a character of this world');
  });
});

/** directionalWalk's travel along its direction at clip time t of a 1 s, 1.5 m cycle (30 fps, linear between frames). */
function travelAt(t: number): number {
  const along = (f: number): number => 1.5 * (f / 30 + 0.03 * Math.sin((4 * Math.PI * f) / 30));
  const f = Math.floor(t * 30), u = t * 30 - f;
  return along(f) + u * (along(f + 1) - along(f));
}
