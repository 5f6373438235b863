import { describe, expect, it } from 'vitest';
import { createSkeleton, type SkeletonDesc } from '../../src/index.js';
import { refused } from '../fixtures/errors.js';

const I = [0, 0, 0, 1];
/** Rest pose entry: translation, identity rotation (or `q`), unit scale. */
const joint = (x: number, y: number, z: number, q = I): number[] => [x, y, z, ...q, 1, 1, 1];

function desc(overrides: Partial<SkeletonDesc> = {}): SkeletonDesc {
  return {
    names: ['root', 'hips', 'spine'],
    parents: [-1, 0, 1],
    rest: [...joint(0, 0, 0), ...joint(0, 1, 0), ...joint(0, 0.5, 0)],
    ...overrides,
  };
}

describe('createSkeleton', () => {
  it('builds a skeleton with inverse bind matrices and hip height from the rest pose', () => {
    const s = createSkeleton(desc());
    expect(s.jointCount).toBe(3);
    expect(Array.from(s.parents)).toEqual([-1, 0, 1]);
    expect(s.hipJoint).toBe(1); // named "hips"
    expect(s.hipHeight).toBeCloseTo(1, 6);
    // spine sits at model (0, 1.5, 0) with identity rotation: inverse bind = translate(0, −1.5, 0)
    const ib = s.inverseBind.subarray(24, 36);
    [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, -1.5, 0].forEach((v, i) => expect(ib[i]).toBeCloseTo(v, 6));
  });

  it('inverse bind follows parent rotations', () => {
    // hips rotated 90° about Z at (0,1,0); spine 0.5 up the hips' local Y → model (−0.5, 1, 0)
    const h = Math.SQRT1_2;
    const s = createSkeleton(desc({ rest: [...joint(0, 0, 0), ...joint(0, 1, 0, [0, 0, h, h]), ...joint(0, 0.5, 0)] }));
    const ib = s.inverseBind.subarray(24, 36);
    // inverse of (R_z90, t = (−0.5, 1, 0)) is (R_z−90, −R_z−90·t) = (R_z−90, (−1, −0.5, 0))
    const expected = [0, -1, 0, 1, 0, 0, 0, 0, 1, -1, -0.5, 0];
    expected.forEach((v, i) => expect(ib[i]).toBeCloseTo(v, 6));
  });

  it('normalizes rest quaternions within tolerance', () => {
    const s = createSkeleton(desc({ rest: [...joint(0, 0, 0, [0, 0, 0, 1.005]), ...joint(0, 1, 0), ...joint(0, 0.5, 0)] }));
    expect(s.rest[6]).toBeCloseTo(1, 7);
  });

  it('finds the hip joint by whole-word name, not leg roots beside it', () => {
    const names = (n: string[]) => createSkeleton({ names: n, parents: [-1, 0, 1], rest: desc().rest }).hipJoint;
    expect(names(['root', 'b_Hip_01', 'spine'])).toBe(1);
    expect(names(['mixamorig:Hips', 'LeftHip', 'spine'])).toBe(0);
    expect(names(['root', 'LHipJoint', 'Pelvis'])).toBe(2);
    expect(names(['root', 'LeftHip', 'knee'])).toBe(1); // no hip name: the root's first child
  });

  it('accepts a hip joint by name and refuses an unknown one', () => {
    expect(createSkeleton(desc({ hipJoint: 'spine' })).hipHeight).toBeCloseTo(1.5, 6);
    expect(refused(() => createSkeleton(desc({ hipJoint: 'pelvis' }))).message).toMatch(/hipJoint.*"pelvis"/);
  });

  it('refuses a missing or empty names array', () => {
    expect(refused(() => createSkeleton(desc({ names: [] }))).message).toMatch(/names/);
  });

  it('refuses duplicate joint names, naming both', () => {
    const e = refused(() => createSkeleton(desc({ names: ['root', 'hips', 'hips'] })));
    expect(e.issues[0]!.path).toBe('names[2]');
    expect(e.message).toMatch(/"hips" repeats names\[1\]/);
  });

  it('refuses a parent that does not come before its child', () => {
    const e = refused(() => createSkeleton(desc({ parents: [-1, 2, 0] })));
    expect(e.message).toMatch(/parents\[1\] \(joint "hips"\) is 2/);
  });

  it('refuses a parents array of the wrong length', () => {
    expect(refused(() => createSkeleton(desc({ parents: [-1, 0] }))).message).toMatch(/parents must have one entry per joint \(3\), has 2/);
  });

  it('refuses a rest pose of the wrong length', () => {
    expect(refused(() => createSkeleton(desc({ rest: joint(0, 0, 0) }))).message).toMatch(/rest must hold jointCount × 10 = 30 floats, has 10/);
  });

  it('refuses non-finite rest values, naming joint and channel', () => {
    const rest = desc().rest as number[];
    rest[21] = Number.NaN; // joint 2 ("spine"), ty
    expect(refused(() => createSkeleton(desc({ rest }))).message).toMatch(/rest joint "spine" \(2\)\.ty is NaN/);
  });

  it('refuses a zero quaternion and a far-from-unit one', () => {
    const zero = refused(() => createSkeleton(desc({ rest: [...joint(0, 0, 0, [0, 0, 0, 0]), ...joint(0, 1, 0), ...joint(0, 0.5, 0)] })));
    expect(zero.message).toMatch(/rest joint "root" \(0\)\.q is a zero quaternion/);
    const long = refused(() => createSkeleton(desc({ rest: [...joint(0, 0, 0), ...joint(0, 1, 0, [0, 0, 0, 2]), ...joint(0, 0.5, 0)] })));
    expect(long.message).toMatch(/rest joint "hips" \(1\)\.q has length 2/);
  });

  it('refuses inverse bind matrices of the wrong length or with NaN', () => {
    expect(refused(() => createSkeleton(desc({ inverseBind: new Float32Array(12) }))).message).toMatch(/inverseBind must hold jointCount × 12 = 36/);
    const ib = new Float32Array(36);
    ib[13] = Infinity;
    expect(refused(() => createSkeleton(desc({ inverseBind: ib }))).message).toMatch(/inverseBind joint "hips" \(1\)\[1\] is Infinity/);
  });

  it('lists every fault in one error', () => {
    const e = refused(() => createSkeleton(desc({ names: ['a', 'a', 'b'], parents: [-1, 5, 0] })));
    expect(e.issues.map((i) => i.path)).toEqual(['names[1]', 'parents[1] (joint "a")']);
  });

  it('does not keep references to the caller arrays', () => {
    const d = desc();
    const s = createSkeleton(d);
    (d.rest as number[])[1] = 99;
    expect(s.rest[1]).toBe(0);
  });
});
