/**
 * Float curves on clips (issue 22, asset side): createClip's `curves` (validated, the seam
 * rule), `sampleCurvesInto` against hand-computed lerps, `curveIndex`, reduced clips keeping
 * curves within `curveTolerance`, difference clips' S − R curves; skeleton curves and
 * attachments (createSkeleton validation); `skinVertices` with morph targets.
 */
import { describe, expect, it } from 'vitest';
import { createClip, createDifferenceClip, createSkeleton, curveIndex, type ClipDesc } from '../../src/index.js';
import { affine, sampleCurvesInto, skinVertices } from '../../src/kernels.js';
import { reduceClip } from '../../src/lod.js';
import { expandFrames } from '../../src/assets/reducedClip.js';
import { refused } from '../fixtures/errors.js';

const skeleton = createSkeleton({
  names: ['root', 'arm'],
  parents: [-1, 0],
  rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
});
const frame = (x: number): number[] => [x, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1];

function desc(overrides: Partial<ClipDesc> = {}): ClipDesc {
  return { skeleton, frameRate: 10, frames: [...frame(0), ...frame(1), ...frame(0)], ...overrides };
}

function sample(clip: ReturnType<typeof createClip>, time: number): number[] {
  const out = new Float32Array(clip.curves.length);
  sampleCurvesInto(out, 0, clip, Float64Array.of(time), 0);
  return Array.from(out);
}

describe('clip curves', () => {
  it('are stored per frame, in the order given; a clip without them has none', () => {
    const clip = createClip(desc({ curves: [{ name: 'blink', values: [0, 1, 0.5] }, { name: 'smile', values: [2, 4, 8] }] }));
    expect(clip.curves.map((c) => c.name)).toEqual(['blink', 'smile']);
    expect(Array.from(clip.curves[1]!.values)).toEqual([2, 4, 8]);
    expect(clip.curves[0]!.keys).toBeNull();
    expect(createClip(desc()).curves).toEqual([]);
  });

  it('appendSeam repeats the first value at the end, as it repeats the first pose', () => {
    const clip = createClip(desc({ frames: [...frame(0), ...frame(1)], appendSeam: true, curves: [{ name: 'c', values: [3, 5] }] }));
    expect(Array.from(clip.curves[0]!.values)).toEqual([3, 5, 3]);
  });

  it('sampleCurvesInto lerps between the frames around the time and clamps outside [0, duration]', () => {
    const clip = createClip(desc({ curves: [{ name: 'a', values: [0, 1, 0.5] }, { name: 'b', values: [2, 4, 8] }] }));
    expect(sample(clip, 0)).toEqual([0, 2]);
    expect(sample(clip, 0.025)).toEqual([Math.fround(0.25), Math.fround(2.5)]); // frame 0.25: 0 + 0.25·1, 2 + 0.25·2
    expect(sample(clip, 0.15)).toEqual([Math.fround(0.75), Math.fround(6)]); // frame 1.5: 1 + 0.5·(0.5 − 1), 4 + 0.5·4
    expect(sample(clip, 0.2)).toEqual([0.5, 8]);
    expect(sample(clip, 5)).toEqual([0.5, 8]);
    expect(sample(clip, -1)).toEqual([0, 2]);
    // Writes at the offset, nothing else.
    const out = new Float32Array(4).fill(-7);
    sampleCurvesInto(out, 1, clip, Float64Array.of(0.1), 0);
    expect(Array.from(out)).toEqual([-7, 1, 4, -7]);
  });

  it('createClip refuses unnamed, repeated, mis-sized and non-finite curves, naming each', () => {
    const e = refused(() => createClip(desc({
      curves: [
        { name: '', values: [0, 0, 0] },
        { name: 'a', values: [0, 0] },
        { name: 'b', values: [0, Number.NaN, 0] },
        { name: 'b', values: [0, 1e39, 0] },
      ],
    })));
    const paths = e.issues.map((i) => i.path);
    expect(paths).toEqual(['curves[0].name', 'curves[1].values', 'curves[2].values[1]', 'curves[3].name', 'curves[3].values[1]']);
    expect(refused(() => createClip(desc({ curves: 'x' as never }))).issues[0]!.path).toBe('curves');
  });

  it('curveIndex finds a curve on a clip or a skeleton, −1 when absent; anything else is refused', () => {
    const withCurves = createSkeleton({ names: ['root'], parents: [-1], rest: frame(0).slice(0, 10), curves: [{ name: 'x' }, { name: 'y', default: 0.25 }] });
    expect(withCurves.curves).toEqual([{ name: 'x', default: 0 }, { name: 'y', default: 0.25 }]);
    expect(curveIndex(withCurves, 'y')).toBe(1);
    expect(curveIndex(withCurves, 'z')).toBe(-1);
    const clip = createClip(desc({ curves: [{ name: 'a', values: [0, 0, 0] }, { name: 'b', values: [0, 0, 0] }] }));
    expect(curveIndex(clip, 'b')).toBe(1);
    expect(curveIndex(clip, 'y')).toBe(-1);
    expect(curveIndex(skeleton, 'a')).toBe(-1);
    expect(refused(() => curveIndex({} as never, 'a')).issues[0]!.path).toBe('skeletonOrClip');
  });

  it('reduceClip keeps every curve within curveTolerance, at every frame and between frames, with fewer keys', () => {
    const frames: number[] = [];
    const smooth: number[] = [], steps: number[] = [];
    const n = 61;
    for (let f = 0; f < n; f++) {
      frames.push(...frame(Math.sin(f / 10)));
      smooth.push(Math.sin(f / 7));
      steps.push(f < 30 ? 0 : 1);
    }
    const clip = createClip({ skeleton, frameRate: 30, frames, loop: false, curves: [{ name: 'smooth', values: smooth }, { name: 'step', values: steps }] });
    for (const curveTolerance of [1e-3, 0.02]) {
      const reduced = reduceClip(clip, { tolerance: 1e-3, curveTolerance });
      expect(reduced.curves.map((c) => c.name)).toEqual(['smooth', 'step']);
      const smoothKeys = reduced.curves[0]!.keys!;
      expect(smoothKeys.length).toBeLessThan(n);
      expect(smoothKeys[0]).toBe(0);
      expect(smoothKeys[smoothKeys.length - 1]).toBe(n - 1);
      expect(reduced.curves[1]!.keys!.length).toBe(4); // 0, 29, 30, 60: a step is two keys either side
      let worst = 0;
      for (let i = 0; i <= (n - 1) * 4; i++) {
        const t = i / 4 / 30; // frames and quarter frames
        const a = sample(clip, t), b = sample(reduced, t);
        worst = Math.max(worst, ...a.map((v, k) => Math.abs(v - b[k]!)));
      }
      expect(worst).toBeLessThanOrEqual(curveTolerance);
      expect(worst).toBeGreaterThan(0); // the smooth curve really lost keys
      // Reduced again: its curves are expanded to frames first.
      expect(reduceClip(reduced, { tolerance: 1e-3, curveTolerance }).curves).toHaveLength(2);
      expect(expandFrames(reduced).length).toBe(clip.frames.length);
    }
    expect(refused(() => reduceClip(clip, { tolerance: 1e-3, curveTolerance: -1 })).issues[0]!.path).toBe('curveTolerance');
  });

  it('a difference clip carries S − R curves (the reference\'s curve, else the skeleton\'s default)', () => {
    const withCurves = createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: [...frame(0)], curves: [{ name: 'a' }, { name: 'b', default: 0.5 }] });
    const source = createClip({ skeleton: withCurves, frameRate: 10, frames: [...frame(0), ...frame(1), ...frame(0)], curves: [{ name: 'a', values: [1, 2, 3] }, { name: 'b', values: [1, 1, 1] }] });
    const reference = createClip({ skeleton: withCurves, frameRate: 10, frames: [...frame(0)], curves: [{ name: 'a', values: [0.25] }] });
    const d = createDifferenceClip(source, reference, { referenceTime: 0 });
    expect(d.curves.map((c) => [c.name, Array.from(c.values)])).toEqual([['a', [0.75, 1.75, 2.75]], ['b', [0.5, 0.5, 0.5]]]);
  });
});

describe('skeleton curves and attachments', () => {
  const rest = [...frame(0)];

  it('attachments: joint by name or index, offset as SQT or 3×4 (default identity)', () => {
    const s = createSkeleton({
      names: ['root', 'arm'], parents: [-1, 0], rest,
      attachments: [
        { name: 'grip', joint: 'arm', offset: [0, 0.1, 0, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 2, 2, 2] },
        { name: 'mount', joint: 0, offset: [1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 6, 7] },
        { name: 'here', joint: 1 },
      ],
    });
    expect(s.attachments.map((a) => [a.name, a.joint])).toEqual([['grip', 1], ['mount', 0], ['here', 1]]);
    // SQT: 90° about z, scale 2, then translation (0, 0.1, 0): x → 2·y, y → −2·x.
    const grip = s.attachments[0]!.offset;
    const expected = [0, 2, 0, -2, 0, 0, 0, 0, 2, 0, 0.1, 0];
    grip.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 6));
    expect(Array.from(s.attachments[1]!.offset)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 6, 7]);
    const identity = new Float32Array(12);
    affine.identity(identity, 0);
    expect(s.attachments[2]!.offset).toEqual(identity);
    expect(createSkeleton({ names: ['root'], parents: [-1], rest: rest.slice(0, 10) }).attachments).toEqual([]);
  });

  it('createSkeleton refuses bad attachments and curves, naming each', () => {
    const e = refused(() => createSkeleton({
      names: ['root', 'arm'], parents: [-1, 0], rest,
      attachments: [
        { name: 'a', joint: 'leg' },
        { name: 'a', joint: 2 },
        { name: '', joint: 0, offset: [1, 2, 3] },
        { name: 'q', joint: 0, offset: [0, 0, 0, 0, 0, 0, 2, 1, 1, 1] },
        { name: 'n', joint: 0, offset: [1, 0, 0, 0, 1, 0, 0, 0, 1, Number.NaN, 0, 0] },
      ],
      curves: [{ name: 'c' }, { name: 'c' }, { name: 'd', default: Infinity }],
    }));
    expect(e.issues.map((i) => i.path)).toEqual([
      'attachments[0].joint', 'attachments[1].name', 'attachments[1].joint', 'attachments[2].name', 'attachments[2].offset',
      'attachments[3].offset joint "q" (0).q', 'attachments[4].offset[9]', 'curves[1].name', 'curves[2].default',
    ]);
  });
});

describe('skinVertices with morph targets', () => {
  it('adds Σ wₖ·Δₖ to each vertex before skinning; weight-0 targets and no targets change nothing', () => {
    // One joint translated by (10, 0, 0) and scaled by 2.
    const palette = new Float32Array([2, 0, 0, 0, 2, 0, 0, 0, 2, 10, 0, 0]);
    const positions = new Float32Array([1, 0, 0, 0, 1, 0]);
    const joints = new Uint16Array(8);
    const weights = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0]);
    const targets = [{ positions: new Float32Array([0, 1, 0, 0, 0, 0]) }, { positions: new Float32Array([0, 0, 0, 0, 0, 1]) }];
    const out = new Float32Array(6);
    skinVertices(palette, positions, joints, weights, out, targets, [0.5, 0.25]);
    // v0 + 0.5·(0,1,0) = (1, 0.5, 0) → (12, 1, 0); v1 + 0.25·(0,0,1) = (0, 1, 0.25) → (10, 2, 0.5).
    expect(Array.from(out)).toEqual([12, 1, 0, 10, 2, 0.5]);
    const plain = new Float32Array(6);
    skinVertices(palette, positions, joints, weights, plain);
    expect(Array.from(plain)).toEqual([12, 0, 0, 10, 2, 0]);
    skinVertices(palette, positions, joints, weights, out, targets, [0, 0]);
    expect(out).toEqual(plain);
    skinVertices(palette, positions, joints, weights, out, [], []);
    expect(out).toEqual(plain);
  });
});
