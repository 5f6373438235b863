/**
 * The dead blend's per-update kernel against the formula with `Math.exp`, `Math.sin` and
 * `Math.cos` (src/systems/deadBlendOffsets.ts, file header): a joint whose source sits at 0
 * with a distance to rest d (translation and scale, each axis its own d) and a rotation vector
 * to rest ρ about one axis, at the extrapolated source's full weight (target weight 0), is at
 * d·(1 − e^(−rt)) and turned by |ρ|·(1 − e^(−rt)) — over r·t from 0 past the cutoff (40), which
 * crosses every eighth of ln 2 the kernel's exponential reduces to, and half angles on both sides
 * of the series' ½ radian.
 */
import { describe, expect, it } from 'vitest';
import { DEAD_Q, DEAD_RATE, DEAD_S, DEAD_T, DEAD_VS, DEAD_VT, DEAD_W, INERTIA_DEAD, SLOT_STRIDE } from '../../src/components/Inertialization.js';
import { applyDeadBlend, captureDeadBlend, DEAD_CLOCK, DEAD_WEIGHT } from '../../src/systems/deadBlendOffsets.js';
import { createCaptureJob } from '../../src/systems/captureOffsets.js';

const POSE_T = 0, POSE_Q = 3, POSE_S = 7;

/** The pose after one update of a joint with these distances to rest (target pose: identity at the origin). */
function extrapolate(rate: number, t: number, d: number, angle: number): Float32Array {
  const state = new Float32Array(SLOT_STRIDE);
  state[DEAD_Q + 3] = 1;
  for (let a = 0; a < 3; a++) {
    state[DEAD_T + a] = 0;
    state[DEAD_VT + a] = d * (a + 1);
    state[DEAD_S + a] = 1;
    state[DEAD_VS + a] = -d * 0.1 * (a + 1);
  }
  state[DEAD_W + 2] = angle;
  state[DEAD_RATE] = rate;
  const pose = new Float32Array(10);
  pose[POSE_Q + 3] = 1;
  for (let a = 0; a < 3; a++) pose[POSE_S + a] = 1;
  const clock = new Float64Array(2);
  clock[DEAD_CLOCK] = t;
  clock[DEAD_WEIGHT] = 0;
  applyDeadBlend(pose, 0, state, 0, 1, clock);
  return pose;
}

describe('the dead blend kernel', () => {
  it('extrapolates by (1 − e^(−rt)) of the distance to rest within float32 rounding, r·t from 0 to past the cutoff', () => {
    const rate = 6.931471805599453; // ln 2 / 0.1 s, as a float32 holds it below
    const r = Math.fround(rate);
    let worst = 0, worstAngle = 0, checked = 0;
    for (let x = 0; x <= 45; x += 0.0137) {
      const t = x / r;
      for (const [d, angle] of [[0.75, 0.4], [2.5, 1.9]] as const) {
        const pose = extrapolate(rate, t, d, angle);
        const share = 1 - Math.exp(-r * t);
        for (let a = 0; a < 3; a++) {
          const want = Math.fround(d * (a + 1)) * share;
          worst = Math.max(worst, Math.abs(pose[POSE_T + a]! - want) / (Math.abs(want) + 1e-30 + 1e-7));
          const scale = 1 + Math.fround(-d * 0.1 * (a + 1)) * share;
          expect(Math.abs(pose[POSE_S + a]! - scale)).toBeLessThan(2.4e-7);
        }
        // About Z by angle·share: (0, 0, sin(θ/2), cos(θ/2)).
        const theta = Math.fround(angle) * share;
        worstAngle = Math.max(worstAngle, Math.abs(pose[POSE_Q + 2]! - Math.sin(theta / 2)), Math.abs(pose[POSE_Q + 3]! - Math.cos(theta / 2)));
        expect(pose[POSE_Q]).toBe(0);
        expect(pose[POSE_Q + 1]).toBe(0);
        checked++;
      }
    }
    console.log(`[dead blend kernel] ${checked} updates: translation within ${worst.toExponential(2)} relative, rotation components within ${worstAngle.toExponential(2)}`);
    expect(checked).toBeGreaterThan(6000);
    expect(worst).toBeLessThan(3e-7); // float32 rounding of the product and the store (2 ulp)
    expect(worstAngle).toBeLessThan(2.4e-7);
  });

  it('a joint still at its source stays there bit for bit at any time', () => {
    for (const t of [0, 0.01, 0.5, 10, 1e4]) {
      const pose = extrapolate(5, t, 0, 0);
      expect(Array.from(pose)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
    }
  });
});

/**
 * One joint's capture: the source moves in x at `speed` (m/s) toward a target 0.1 m ahead and
 * its scale moves by `scaleStep` between P2 and P1, h = 1 ms apart. Returns the joint's decay rate and scale velocity's distance to rest.
 */
function captureWithScaleStep(scaleStep: number): { rate: number; scaleToRest: number } {
  const pose = (x: number, scale: number): Float32Array => Float32Array.from([x, 0, 0, 0, 0, 0, 1, scale, scale, scale]);
  const h = 1e-3, speed = 0.5;
  const job = createCaptureJob();
  job.p1 = pose(0, 1); job.p2 = pose(-speed * h, 1 - scaleStep); job.blend = pose(0.1, 1);
  job.offsets = new Float32Array(SLOT_STRIDE);
  job.jointCount = 1; job.prevDt = h; job.halfLife = 0.5; job.mode = INERTIA_DEAD;
  captureDeadBlend(job);
  return { rate: job.offsets[DEAD_RATE]!, scaleToRest: job.offsets[DEAD_VS]! };
}

describe('the dead blend capture', () => {
  it('takes a channel moved by float32 rounding for still: no velocity, and the half-life is the moving channel\'s', () => {
    // The translation's fit: heading 0.5 m/s toward 0.1 m, τ = 0.2 s, half-life ln 2 · τ: rate 1/τ.
    const fitted = 1 / 0.2;
    const ulp = 2 ** -24; // a float32 ulp just below 1
    const still = captureWithScaleStep(ulp);
    expect(still.scaleToRest).toBe(0);
    expect(still.rate).toBeCloseTo(fitted, 3);
    // Moved by more than rounding (a scale growing at 0.06 per second, none left to the target):
    // a velocity, heading nowhere, so the joint takes the shortest half-life (0.05 s).
    const moving = captureWithScaleStep(64 * 2 ** -20);
    expect(moving.scaleToRest).not.toBe(0);
    expect(moving.rate).toBeCloseTo(Math.LN2 / 0.05, 3);
  });
});
