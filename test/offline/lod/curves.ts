/**
 * Synthetic channels for the LOD tests: piecewise cubics with known knots (as truncated powers,
 * the seed's s(x) = s₋₁(x) + Σ cⱼ (x − xⱼ)₊^m), sines, mocap-like sums of sines with noise.
 */
import fc from 'fast-check';

/** One knot: frame, power p (3: C² join, 2: C¹, 1: C⁰) and coefficient c of c·(f − frame)₊^p. */
export interface Knot {
  readonly frame: number;
  readonly power: 1 | 2 | 3;
  readonly c: number;
}

/** A cubic base plus truncated powers: the channel of a piecewise cubic with known knots. */
export interface PiecewiseCubic {
  readonly frameCount: number;
  /** Base cubic b0 + b1 f + b2 f² + b3 f³ (f in frames). */
  readonly base: readonly [number, number, number, number];
  readonly knots: readonly Knot[];
}

/** Samples a {@link PiecewiseCubic} at every frame. */
export function samplePiecewise(curve: PiecewiseCubic): Float64Array {
  const y = new Float64Array(curve.frameCount);
  const [b0, b1, b2, b3] = curve.base;
  for (let f = 0; f < y.length; f++) {
    let v = b0 + f * (b1 + f * (b2 + f * b3));
    for (const k of curve.knots) if (f > k.frame) v += k.c * (f - k.frame) ** k.power;
    y[f] = v;
  }
  return y;
}

/** Range (max − min) of a channel. */
export function range(y: Float64Array): number {
  let min = Infinity, max = -Infinity;
  for (const v of y) { min = Math.min(min, v); max = Math.max(max, v); }
  return max - min;
}

/**
 * Random piecewise cubics: 120–300 frames, 1–5 knots at least `gap` frames apart and from both
 * ends, mixed powers (or only `powers`), |c| spread over two decades with random sign.
 */
export function arbitraryPiecewise(powers: readonly (1 | 2 | 3)[] = [1, 2, 3], gap = 8): fc.Arbitrary<PiecewiseCubic> {
  return fc.integer({ min: 120, max: 300 }).chain((frameCount) => {
    const slots = Math.floor((frameCount - 2 * gap) / gap);
    return fc.record({
      frameCount: fc.constant(frameCount),
      base: fc.tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
        fc.double({ min: -1e-5, max: 1e-5, noNaN: true }),
      ),
      knots: fc.uniqueArray(fc.integer({ min: 0, max: slots }), { minLength: 1, maxLength: 5 }).chain((cells) =>
        fc.tuple(...cells.sort((a, b) => a - b).map((cell) =>
          fc.record({
            frame: fc.constant(gap + cell * gap),
            power: fc.constantFrom(...powers),
            magnitude: fc.double({ min: 0, max: 2, noNaN: true }),
            negative: fc.boolean(),
          }).map(({ frame, power, magnitude, negative }): Knot => {
            // Scale so each power moves the channel by a comparable amount over ~100 frames.
            const c = (negative ? -1 : 1) * 10 ** magnitude * 10 ** (-2 * power);
            return { frame, power, c };
          }),
        )),
      ),
    });
  });
}

/** A small deterministic PRNG (LCG) in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * A mocap-like channel: the sum of three sines (amplitudes 0.2–1.2, 0.3–2.3 Hz, random phase)
 * plus uniform noise of ±`noise`/2, `frameCount` frames at `frameRate`. With `holds`, the
 * motion fades in and out (0.5 s smoothstep ramps) between still stretches, as an actor who
 * stands, moves for 2–3 s, and stands again.
 */
export function mocapLike(seed: number, frameCount = 600, frameRate = 60, noise = 2e-4, holds = false): Float64Array {
  const r = lcg(seed);
  const parts = [0, 1, 2].map(() => ({ a: 0.2 + r(), hz: 0.3 + 2 * r(), phase: 6 * r() }));
  const t0 = 1 + r(), t1 = t0 + 2 + r();
  const y = new Float64Array(frameCount);
  for (let f = 0; f < frameCount; f++) {
    const t = f / frameRate;
    let v = 0;
    for (const p of parts) v += p.a * Math.sin(2 * Math.PI * p.hz * t + p.phase);
    const envelope = holds ? smoothstep((t - t0) / 0.5) * (1 - smoothstep((t - t1) / 0.5)) : 1;
    y[f] = envelope * v + (r() - 0.5) * noise;
  }
  return y;
}

function smoothstep(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 1 : x * x * x * (x * (6 * x - 15) + 10);
}
