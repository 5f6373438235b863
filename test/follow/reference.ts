/**
 * Independent references for the minimum-jerk follower tests: the seed's state model
 * integrated by classical RK4 in physical units (shared/seeds/minimum-jerk.txt, "state model"
 * with vf = af = 0), and a matrix exponential by Taylor series with scaling and squaring.
 * Neither uses the implementation's closed form.
 */

/** One axis of the follower: position, velocity, acceleration. */
export type AxisState = [x: number, v: number, a: number];

/** ṡ of the seed's model: ẋ = v, v̇ = a, ȧ = −60/T³ (x − xf) − 36/T² v − 9/T a. */
function derivative(s: AxisState, xf: number, T: number): AxisState {
  return [s[1], s[2], (-60 / T ** 3) * (s[0] - xf) - (36 / T ** 2) * s[1] - (9 / T) * s[2]];
}

/** Advances `s` by `seconds` towards the constant `xf` in `steps` RK4 steps; returns the new state. */
export function rk4(s: AxisState, xf: number, T: number, seconds: number, steps: number): AxisState {
  let y: AxisState = [s[0], s[1], s[2]];
  const h = seconds / steps;
  for (let n = 0; n < steps; n++) {
    const k1 = derivative(y, xf, T);
    const k2 = derivative([y[0] + (h / 2) * k1[0], y[1] + (h / 2) * k1[1], y[2] + (h / 2) * k1[2]], xf, T);
    const k3 = derivative([y[0] + (h / 2) * k2[0], y[1] + (h / 2) * k2[1], y[2] + (h / 2) * k2[2]], xf, T);
    const k4 = derivative([y[0] + h * k3[0], y[1] + h * k3[1], y[2] + h * k3[2]], xf, T);
    y = [
      y[0] + (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
      y[1] + (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]),
      y[2] + (h / 6) * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2]),
    ];
  }
  return y;
}

/** The follower's scaled companion matrix M (row-major), written out from the seed's A with T = 1. */
export const M = [0, 1, 0, 0, 0, 1, -60, -36, -9];

/** 3×3 row-major product a·b. */
export function mul3(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return out;
}

/** exp(h·M) by a 30-term Taylor series of h·M / 2^k (norm ≤ 1/8), squared k times. */
export function expmTaylor(h: number): number[] {
  const norm = h * 105; // ‖M‖∞ = 60 + 36 + 9
  let k = 0;
  while (norm / 2 ** k > 0.125) k++;
  const A = M.map((m) => (m * h) / 2 ** k);
  let term = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let sum = term.slice();
  for (let n = 1; n <= 30; n++) {
    term = mul3(term, A).map((v) => v / n);
    sum = sum.map((v, i) => v + term[i]!);
  }
  for (let s = 0; s < k; s++) sum = mul3(sum, sum);
  return sum;
}

/** The end state (xf, vf, af) the follower is given at a time. */
export type FollowInput = (t: number) => [xf: number, vf: number, af: number];

/**
 * ṡ of the seed's model with its full input, the input matrix's last row as derived from the
 * quintic (60/T³, −24/T², 3/T; the seed prints −24/T³ and 3/T³):
 * ȧ = −60/T³ x − 36/T² v − 9/T a + 60/T³ xf − 24/T² vf + 3/T af.
 */
export function derivativeFull(s: AxisState, u: readonly [number, number, number], T: number): AxisState {
  return [s[1], s[2], (-60 / T ** 3) * s[0] - (36 / T ** 2) * s[1] - (9 / T) * s[2] + (60 / T ** 3) * u[0] - (24 / T ** 2) * u[1] + (3 / T) * u[2]];
}

/**
 * Advances `s` from time `t0` by `seconds` in `steps` classical RK4 steps of the full-input
 * model, the input `input(t)` read at each stage's time; returns the new state.
 */
export function rk4Full(s: AxisState, input: FollowInput, T: number, t0: number, seconds: number, steps: number): AxisState {
  let y: AxisState = [s[0], s[1], s[2]];
  const h = seconds / steps;
  const add = (p: AxisState, k: AxisState, f: number): AxisState => [p[0] + f * k[0], p[1] + f * k[1], p[2] + f * k[2]];
  for (let n = 0; n < steps; n++) {
    const t = t0 + n * h;
    const k1 = derivativeFull(y, input(t), T);
    const k2 = derivativeFull(add(y, k1, h / 2), input(t + h / 2), T);
    const k3 = derivativeFull(add(y, k2, h / 2), input(t + h / 2), T);
    const k4 = derivativeFull(add(y, k3, h), input(t + h), T);
    y = [
      y[0] + (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
      y[1] + (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]),
      y[2] + (h / 6) * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2]),
    ];
  }
  return y;
}
