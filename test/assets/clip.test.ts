import { describe, expect, it } from 'vitest';
import { createClip, createMask, createSkeleton, type ClipDesc } from '../../src/index.js';
import { refused } from '../fixtures/errors.js';

const skeleton = createSkeleton({
  names: ['root', 'arm'],
  parents: [-1, 0],
  rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
});

/** Two joints, translation x = `x` on the root, identity elsewhere. */
const frame = (x: number): number[] => [x, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1];

function desc(overrides: Partial<ClipDesc> = {}): ClipDesc {
  return { skeleton, frameRate: 10, frames: [...frame(0), ...frame(1), ...frame(0)], ...overrides };
}

describe('createClip', () => {
  it('derives frame count and duration, with the seam frame counted', () => {
    const clip = createClip(desc());
    expect(clip.frameCount).toBe(3);
    expect(clip.duration).toBeCloseTo(0.2, 12); // (3 − 1) / 10
    expect(clip.loop).toBe(true);
  });

  it('appendSeam copies frame 0 to the end', () => {
    const clip = createClip(desc({ frames: [...frame(0), ...frame(1)], appendSeam: true }));
    expect(clip.frameCount).toBe(3);
    expect(clip.duration).toBeCloseTo(0.2, 12);
    expect(Array.from(clip.frames.subarray(40, 60))).toEqual(frame(0));
  });

  it('sorts events by time, keeping ties in input order', () => {
    const clip = createClip(desc({ events: [{ time: 0.1, name: 'b' }, { time: 0, name: 'a' }, { time: 0.1, name: 'c' }] }));
    expect(clip.events.map((e) => e.name)).toEqual(['a', 'b', 'c']);
    expect(Array.from(clip.eventTimes)).toEqual([0, 0.1, 0.1]);
  });

  it('refuses a frame rate that is not finite and > 0', () => {
    for (const frameRate of [0, -30, Number.NaN, Infinity]) {
      expect(refused(() => createClip(desc({ frameRate }))).issues[0]!.path).toBe('frameRate');
    }
  });

  it('refuses a clip without frames', () => {
    expect(refused(() => createClip(desc({ frames: [] }))).message).toMatch(/frames is empty/);
  });

  it('refuses a length that is not whole frames', () => {
    expect(refused(() => createClip(desc({ frames: [...frame(0), 1, 2] }))).message).toMatch(/frames has 22 floats, not a whole number of frames of jointCount × 10 = 20/);
  });

  it('refuses non-finite values, naming frame, joint and channel', () => {
    const frames = [...frame(0), ...frame(1), ...frame(0)];
    frames[20 + 10 + 8] = Infinity; // frame 1, joint 1 ("arm"), sy
    expect(refused(() => createClip(desc({ frames }))).message).toMatch(/frames\[1\] joint "arm" \(1\)\.sy is Infinity/);
  });

  it('refuses values a 32-bit float cannot hold', () => {
    const frames = [...frame(0), ...frame(1), ...frame(0)];
    frames[1] = 1e39; // finite as a double, Infinity as a float32
    expect(refused(() => createClip(desc({ frames }))).message).toMatch(/frames\[0\] joint "root" \(0\)\.ty is 1e\+39, too large for a 32-bit float/);
  });

  it('normalizes near-unit quaternions and refuses zero ones', () => {
    const frames = [...frame(0), ...frame(1), ...frame(0)];
    frames[6] = 1.004;
    expect(createClip(desc({ frames })).frames[6]).toBeCloseTo(1, 7);
    frames[6] = 0;
    expect(refused(() => createClip(desc({ frames }))).message).toMatch(/frames\[0\] joint "root" \(0\)\.q is a zero quaternion/);
  });

  it('refuses events outside the clip or without a name', () => {
    expect(refused(() => createClip(desc({ events: [{ time: -1, name: 'x' }] }))).issues[0]!.path).toBe('events[0].time');
    expect(refused(() => createClip(desc({ events: [{ time: 0.2, name: 'x' }] }))).message).toMatch(/< the duration 0\.2 for a looping clip/);
    expect(createClip(desc({ loop: false, events: [{ time: 0.2, name: 'end' }] })).events).toHaveLength(1);
    expect(refused(() => createClip(desc({ events: [{ time: 0, name: '' }] }))).issues[0]!.path).toBe('events[0].name');
  });

  it('refuses a skeleton that is not one', () => {
    expect(refused(() => createClip(desc({ skeleton: {} as never }))).issues[0]!.path).toBe('skeleton');
  });
});

describe('createMask', () => {
  const tree = createSkeleton({
    names: ['root', 'spine', 'head', 'leg'],
    parents: [-1, 0, 1, 0],
    rest: new Array(40).fill(0).map((_, i) => ([6, 7, 8, 9].includes(i % 10) ? 1 : 0)),
  });

  it('propagates named weights to descendants, nearest named ancestor winning', () => {
    expect(Array.from(createMask(tree, { spine: 1 }).weights)).toEqual([0, 1, 1, 0]);
    expect(Array.from(createMask(tree, { spine: 1, head: 0.5 }).weights)).toEqual([0, 1, 0.5, 0]);
    expect(Array.from(createMask(tree, { spine: 1 }, { descendants: false }).weights)).toEqual([0, 1, 0, 0]);
  });

  it('refuses unknown joints and weights outside [0, 1]', () => {
    expect(refused(() => createMask(tree, { tail: 1 })).message).toMatch(/weights\["tail"\] is not a joint/);
    expect(refused(() => createMask(tree, [0, 1, 2, 0])).message).toMatch(/weights\[2\] \(joint "head"\) is 2/);
    expect(refused(() => createMask(tree, [0, 1])).message).toMatch(/one entry per joint \(4\), has 2/);
  });
});
