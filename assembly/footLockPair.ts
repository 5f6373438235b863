/**
 * Foot locking's IK and rotation corrections for two legs at once (assembly/footLock.ts), one
 * leg per lane of `f64x2`: src/math/twoBoneIk.ts `solveLegIk` and src/systems/footLockSystem.ts
 * `turnLeg`, the same statements in the same order. A leg's solve is a long chain of dependent
 * square roots and divisions, so one leg alone keeps the core waiting; two independent legs in
 * the lanes of one chain cost little more than one. Every lane operation (add, mul, div, sqrt,
 * abs, max; no fused multiply-add) rounds as its scalar f64 form does, and each branch of the
 * scalar code becomes both sides computed and one selected per lane, so each lane's doubles are
 * the scalar code's bit for bit.
 *
 * A leg's inputs are a **stage** (16 f64, `S_*`): its root (hip), mid (knee) and end (foot)
 * model positions, the target, the pole, and a flag. {@link solvePair} writes the deltas D1, D2
 * of both lanes (8 f64 each, at `out` and `out + 64`) and returns which lanes met one of
 * `solveLegIk`'s special cases (bit 0: lane a, bit 1: lane b), whose deltas are then not valid.
 * {@link turnPair} applies two legs' deltas to their local rotations.
 */

/** A stage's f64 slots, as byte offsets: root, mid, end, target, pole (x y z each), the pending flag. */
export const S_ROOT: usize = 0;
export const S_MID: usize = 24;
export const S_END: usize = 48;
export const S_TARGET: usize = 72;
export const S_POLE: usize = 96;
export const S_PENDING: usize = 120;
/** Bytes of a stage. */
export const STAGE: usize = 128;
/** Bytes of one lane's deltas in {@link solvePair}'s output: D1 (x y z w), then D2. */
export const PAIR_DELTA: usize = 64;

// solveLegIk's thresholds (src/math/twoBoneIk.ts).
const ZERO_LENGTH: f64 = 1e-9;
const PARALLEL_SINE: f64 = 1e-9;
const IK_OPPOSITE: f64 = 1e-15;

/** Bytes of a joint's model record in the scratch (assembly/footLock.ts `RECORD`), its rotation's offset. */
const RECORD: usize = 128;
const REC_Q: usize = 96;
/** Bytes of a joint pose (10 f32), its rotation's offset. */
const POSE: usize = 40;
const POSE_Q: usize = 12;

/** The f64 at `offset` of lane a's block `a` and lane b's block `b`, as the two lanes of an f64x2. */
// @ts-ignore: decorator
@inline function gather(a: usize, b: usize, offset: usize): v128 {
  return f64x2.replace_lane(f64x2.splat(load<f64>(a + offset)), 1, load<f64>(b + offset));
}

/** The f32 at `offset` of `a` and of `b`, promoted, as the two lanes of an f64x2. */
// @ts-ignore: decorator
@inline function gather32(a: usize, b: usize, offset: usize): v128 {
  return f64x2.replace_lane(f64x2.splat(<f64>load<f32>(a + offset)), 1, <f64>load<f32>(b + offset));
}

/** Per lane, `yes` where `condition` is all ones, else `no`. */
// @ts-ignore: decorator
@inline function choose(condition: v128, yes: v128, no: v128): v128 {
  return v128.bitselect(yes, no, condition);
}

/** x·x + y·y + z·z per lane, summed left to right as the scalar code does. */
// @ts-ignore: decorator
@inline function dot3(ax: v128, ay: v128, az: v128, bx: v128, by: v128, bz: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.mul(ax, bx), f64x2.mul(ay, by)), f64x2.mul(az, bz));
}

/** a·b − c·d per lane. */
// @ts-ignore: decorator
@inline function cross1(a: v128, b: v128, c: v128, d: v128): v128 {
  return f64x2.sub(f64x2.mul(a, b), f64x2.mul(c, d));
}

/**
 * `solveLegIk` on the stages `sa` (lane a) and `sb` (lane b): D1, D2 of lane a at `out`, of lane
 * b at `out + PAIR_DELTA` (f64 x y z w each). Returns the lanes whose solve is one of the special
 * cases `solveLegIk` hands to `solveTwoBoneIk` (bit 0 lane a, bit 1 lane b).
 */
export function solvePair(out: usize, sa: usize, sb: usize): i32 {
  const ax = gather(sa, sb, S_ROOT), ay = gather(sa, sb, S_ROOT + 8), az = gather(sa, sb, S_ROOT + 16);
  const bx = gather(sa, sb, S_MID), by = gather(sa, sb, S_MID + 8), bz = gather(sa, sb, S_MID + 16);
  const cx = gather(sa, sb, S_END), cy = gather(sa, sb, S_END + 8), cz = gather(sa, sb, S_END + 16);
  const zero = f64x2.splat(0), one = f64x2.splat(1), half = f64x2.splat(0.5), two = f64x2.splat(2);
  const tiny = f64x2.splat(ZERO_LENGTH);

  const e1x = f64x2.sub(bx, ax), e1y = f64x2.sub(by, ay), e1z = f64x2.sub(bz, az);
  const e2x = f64x2.sub(cx, bx), e2y = f64x2.sub(cy, by), e2z = f64x2.sub(cz, bz);
  const l1 = f64x2.sqrt(dot3(e1x, e1y, e1z, e1x, e1y, e1z));
  const l2 = f64x2.sqrt(dot3(e2x, e2y, e2z, e2x, e2y, e2z));
  let ux = f64x2.sub(gather(sa, sb, S_TARGET), ax), uy = f64x2.sub(gather(sa, sb, S_TARGET + 8), ay), uz = f64x2.sub(gather(sa, sb, S_TARGET + 16), az);
  const dist = f64x2.sqrt(dot3(ux, uy, uz, ux, uy, uz));
  const crossX = cross1(e1y, e2z, e1z, e2y), crossY = cross1(e1z, e2x, e1x, e2z), crossZ = cross1(e1x, e2y, e1y, e2x);
  const crossLen = f64x2.sqrt(dot3(crossX, crossY, crossZ, crossX, crossY, crossZ));
  // The valid lanes: dist > ε, l1 > ε, l2 > ε, crossLen > PARALLEL_SINE·l1·l2 (false on NaN, as the scalar `!(…)`).
  let valid = v128.and(v128.and(f64x2.gt(dist, tiny), f64x2.gt(l1, tiny)), v128.and(f64x2.gt(l2, tiny), f64x2.gt(crossLen, f64x2.mul(f64x2.mul(f64x2.splat(PARALLEL_SINE), l1), l2))));
  const iu = f64x2.div(one, dist), ih = f64x2.div(one, crossLen);
  ux = f64x2.mul(ux, iu); uy = f64x2.mul(uy, iu); uz = f64x2.mul(uz, iu);
  const hx = f64x2.mul(crossX, ih), hy = f64x2.mul(crossY, ih), hz = f64x2.mul(crossZ, ih);
  const lo = f64x2.abs(f64x2.sub(l1, l2)), hi = f64x2.add(l1, l2);
  const d = choose(f64x2.lt(dist, lo), lo, choose(f64x2.gt(dist, hi), hi, dist));

  const il = f64x2.div(one, f64x2.mul(l1, l2));
  const cosK = f64x2.mul(f64x2.neg(dot3(e1x, e1y, e1z, e2x, e2y, e2z)), il), sinK = f64x2.mul(crossLen, il);
  // cos K ≥ 0: cos C = √(½(1 + cos K)), sin C = sin K / (2 cos C); else sin C first.
  const bent = f64x2.ge(cosK, zero);
  const rootPlus = f64x2.sqrt(f64x2.mul(half, f64x2.add(one, cosK))), rootMinus = f64x2.sqrt(f64x2.mul(half, f64x2.sub(one, cosK)));
  const cosC = choose(bent, rootPlus, f64x2.div(sinK, f64x2.mul(two, rootMinus)));
  const sinC = choose(bent, f64x2.div(sinK, f64x2.mul(two, rootPlus)), rootMinus);
  const open = f64x2.mul(f64x2.sub(d, lo), f64x2.add(d, lo)), closed = f64x2.mul(f64x2.sub(hi, d), f64x2.add(hi, d));
  const quarter = f64x2.splat(0.25);
  const cosI = f64x2.sqrt(choose(f64x2.gt(closed, zero), f64x2.mul(f64x2.mul(quarter, closed), il), zero));
  const sinI = f64x2.sqrt(choose(f64x2.gt(open, zero), f64x2.mul(f64x2.mul(quarter, open), il), zero));
  const cosH = f64x2.add(f64x2.mul(cosC, cosI), f64x2.mul(sinC, sinI)), sinH = f64x2.sub(f64x2.mul(sinC, cosI), f64x2.mul(cosC, sinI));

  const qx = f64x2.mul(hx, sinH), qy = f64x2.mul(hy, sinH), qz = f64x2.mul(hz, sinH);
  const tx = f64x2.mul(two, cross1(qy, e2z, qz, e2y)), ty = f64x2.mul(two, cross1(qz, e2x, qx, e2z)), tz = f64x2.mul(two, cross1(qx, e2y, qy, e2x));
  valid = v128.and(valid, f64x2.gt(d, tiny));
  const iv = f64x2.div(one, d);
  const vx = f64x2.mul(f64x2.add(f64x2.add(f64x2.add(e1x, e2x), f64x2.mul(cosH, tx)), cross1(qy, tz, qz, ty)), iv);
  const vy = f64x2.mul(f64x2.add(f64x2.add(f64x2.add(e1y, e2y), f64x2.mul(cosH, ty)), cross1(qz, tx, qx, tz)), iv);
  const vz = f64x2.mul(f64x2.add(f64x2.add(f64x2.add(e1z, e2z), f64x2.mul(cosH, tz)), cross1(qx, ty, qy, tx)), iv);

  const wa = f64x2.add(one, dot3(vx, vy, vz, ux, uy, uz));
  valid = v128.and(valid, f64x2.gt(wa, f64x2.splat(IK_OPPOSITE)));
  let Ax = cross1(vy, uz, vz, uy), Ay = cross1(vz, ux, vx, uz), Az = cross1(vx, uy, vy, ux), Aw = wa;
  const ia = f64x2.div(one, f64x2.sqrt(f64x2.add(dot3(Ax, Ay, Az, Ax, Ay, Az), f64x2.mul(Aw, Aw))));
  Ax = f64x2.mul(Ax, ia); Ay = f64x2.mul(Ay, ia); Az = f64x2.mul(Az, ia); Aw = f64x2.mul(Aw, ia);

  let px = f64x2.sub(gather(sa, sb, S_POLE), ax), py = f64x2.sub(gather(sa, sb, S_POLE + 8), ay), pz = f64x2.sub(gather(sa, sb, S_POLE + 16), az);
  const poleMax = f64x2.max(f64x2.max(f64x2.abs(px), f64x2.abs(py)), f64x2.abs(pz));
  const scaled = v128.and(f64x2.gt(poleMax, zero), f64x2.lt(poleMax, f64x2.splat(Infinity)));
  const ip = f64x2.div(one, poleMax);
  px = choose(scaled, f64x2.mul(px, ip), px); py = choose(scaled, f64x2.mul(py, ip), py); pz = choose(scaled, f64x2.mul(pz, ip), pz);
  const along = dot3(px, py, pz, ux, uy, uz);
  const ppx = f64x2.sub(px, f64x2.mul(ux, along)), ppy = f64x2.sub(py, f64x2.mul(uy, along)), ppz = f64x2.sub(pz, f64x2.mul(uz, along));
  const pp2 = dot3(ppx, ppy, ppz, ppx, ppy, ppz), pole2 = dot3(px, py, pz, px, py, pz);

  // The pole turn T about u, where the pole has a part across u; else D = A.
  const sx = f64x2.mul(two, cross1(Ay, hz, Az, hy)), sy = f64x2.mul(two, cross1(Az, hx, Ax, hz)), sz = f64x2.mul(two, cross1(Ax, hy, Ay, hx));
  const ahx = f64x2.add(f64x2.add(hx, f64x2.mul(Aw, sx)), cross1(Ay, sz, Az, sy));
  const ahy = f64x2.add(f64x2.add(hy, f64x2.mul(Aw, sy)), cross1(Az, sx, Ax, sz));
  const ahz = f64x2.add(f64x2.add(hz, f64x2.mul(Aw, sz)), cross1(Ax, sy, Ay, sx));
  const nx = cross1(uy, ahz, uz, ahy), ny = cross1(uz, ahx, ux, ahz), nz = cross1(ux, ahy, uy, ahx);
  const sinR = dot3(ux, uy, uz, cross1(ny, ppz, nz, ppy), cross1(nz, ppx, nx, ppz), cross1(nx, ppy, ny, ppx));
  const cosR = dot3(nx, ny, nz, ppx, ppy, ppz);
  const R = f64x2.sqrt(f64x2.add(f64x2.mul(sinR, sinR), f64x2.mul(cosR, cosR)));
  const iR = f64x2.div(one, R);
  const cosA = f64x2.mul(cosR, iR), sinA = f64x2.mul(sinR, iR);
  const ahead = f64x2.ge(cosA, zero);
  const twPlus = f64x2.sqrt(f64x2.mul(half, f64x2.add(one, cosA)));
  const tsMinus0 = f64x2.sqrt(f64x2.mul(half, f64x2.sub(one, cosA)));
  const tsMinus = choose(f64x2.lt(sinA, zero), f64x2.neg(tsMinus0), tsMinus0);
  const turned = f64x2.gt(R, zero);
  const Ts = choose(turned, choose(ahead, f64x2.div(sinA, f64x2.mul(two, twPlus)), tsMinus), zero);
  const Tw = choose(turned, choose(ahead, twPlus, f64x2.div(sinA, f64x2.mul(two, tsMinus))), one);
  const Tx = f64x2.mul(ux, Ts), Ty = f64x2.mul(uy, Ts), Tz = f64x2.mul(uz, Ts);
  const poled = f64x2.gt(pp2, f64x2.mul(f64x2.splat(PARALLEL_SINE * PARALLEL_SINE), pole2));
  let Dx = choose(poled, productX(Tx, Ty, Tz, Tw, Ax, Ay, Az, Aw), Ax);
  let Dy = choose(poled, productY(Tx, Ty, Tz, Tw, Ax, Ay, Az, Aw), Ay);
  let Dz = choose(poled, productZ(Tx, Ty, Tz, Tw, Ax, Ay, Az, Aw), Az);
  let Dw = choose(poled, productW(Tx, Ty, Tz, Tw, Ax, Ay, Az, Aw), Aw);
  const flip = f64x2.lt(Dw, zero);
  Dx = choose(flip, f64x2.neg(Dx), Dx); Dy = choose(flip, f64x2.neg(Dy), Dy); Dz = choose(flip, f64x2.neg(Dz), Dz); Dw = choose(flip, f64x2.neg(Dw), Dw);
  const rx = f64x2.mul(two, cross1(Dy, hz, Dz, hy)), ry = f64x2.mul(two, cross1(Dz, hx, Dx, hz)), rz = f64x2.mul(two, cross1(Dx, hy, Dy, hx));
  const gx = f64x2.add(f64x2.add(hx, f64x2.mul(Dw, rx)), cross1(Dy, rz, Dz, ry));
  const gy = f64x2.add(f64x2.add(hy, f64x2.mul(Dw, ry)), cross1(Dz, rx, Dx, rz));
  const gz = f64x2.add(f64x2.add(hz, f64x2.mul(Dw, rz)), cross1(Dx, ry, Dy, rx));
  const D2x = f64x2.mul(gx, sinH), D2y = f64x2.mul(gy, sinH), D2z = f64x2.mul(gz, sinH);

  storeLanes(out, Dx, Dy, Dz, Dw, 0);
  storeLanes(out, D2x, D2y, D2z, cosH, 32);
  return ~v128.bitmask<i64>(valid) & 3;
}

/** Lane a of (x, y, z, w) at `out + at`, lane b at `out + PAIR_DELTA + at`. */
// @ts-ignore: decorator
@inline function storeLanes(out: usize, x: v128, y: v128, z: v128, w: v128, at: usize): void {
  store<f64>(out + at, f64x2.extract_lane(x, 0)); store<f64>(out + at, f64x2.extract_lane(y, 0), 8);
  store<f64>(out + at, f64x2.extract_lane(z, 0), 16); store<f64>(out + at, f64x2.extract_lane(w, 0), 24);
  const b = out + PAIR_DELTA + at;
  store<f64>(b, f64x2.extract_lane(x, 1)); store<f64>(b, f64x2.extract_lane(y, 1), 8);
  store<f64>(b, f64x2.extract_lane(z, 1), 16); store<f64>(b, f64x2.extract_lane(w, 1), 24);
}

/** The x, y, z, w of the Hamilton product a·b per lane, summed in the order the scalar code writes them (as `quat.multiply`). */
// @ts-ignore: decorator
@inline function productX(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(aw, bx), f64x2.mul(ax, bw)), f64x2.mul(ay, bz)), f64x2.mul(az, by));
}
// @ts-ignore: decorator
@inline function productY(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.sub(f64x2.mul(aw, by), f64x2.mul(ax, bz)), f64x2.mul(ay, bw)), f64x2.mul(az, bx));
}
// @ts-ignore: decorator
@inline function productZ(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f64x2.add(f64x2.sub(f64x2.add(f64x2.mul(aw, bz), f64x2.mul(ax, by)), f64x2.mul(ay, bx)), f64x2.mul(az, bw));
}
// @ts-ignore: decorator
@inline function productW(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f64x2.sub(f64x2.sub(f64x2.sub(f64x2.mul(aw, bw), f64x2.mul(ax, bx)), f64x2.mul(ay, by)), f64x2.mul(az, bz));
}

/**
 * footLockSystem's `turnLeg` for two legs, lane a (joints ua, ka, fa; deltas at `da`) and lane b
 * (ub, kb, fb; `db`), of the pose at `local` with the model records at `model`: the deltas into
 * the local rotations of upper, lower and (unless detached) the foot, each normalized, a joint
 * whose result is not finite or zero left as it was. `writeB` false (a leg alone: lane b repeats
 * lane a) writes lane a only.
 */
export function turnPair(
  local: usize, model: usize, parents: usize,
  ua: usize, ka: usize, fa: usize, detachedA: bool, da: usize,
  ub: usize, kb: usize, fb: usize, detachedB: bool, db: usize, writeB: bool,
): void {
  const d1x = gather(da, db, 0), d1y = gather(da, db, 8), d1z = gather(da, db, 16), d1w = gather(da, db, 24);
  const d2x = gather(da, db, 32), d2y = gather(da, db, 40), d2z = gather(da, db, 48), d2w = gather(da, db, 56);

  // upper: r = conj(P)·(D1·P) where it has a parent P, else D1; then r·q.
  const pa = load<i32>(parents + (ua << 2)), pb = load<i32>(parents + (ub << 2));
  // A root's lane reads any record (its product is not chosen).
  const ma = model + <usize>(pa >= 0 ? pa : 0) * RECORD + REC_Q, mb = model + <usize>(pb >= 0 ? pb : 0) * RECORD + REC_Q;
  const rooted = f64x2.replace_lane(f64x2.splat(pa >= 0 ? 0.0 : 1.0), 1, pb >= 0 ? 0.0 : 1.0);
  const isRoot = f64x2.gt(rooted, f64x2.splat(0));
  {
    const px = gather(ma, mb, 0), py = gather(ma, mb, 8), pz = gather(ma, mb, 16), pw = gather(ma, mb, 24);
    const ux = productX(d1x, d1y, d1z, d1w, px, py, pz, pw), uy = productY(d1x, d1y, d1z, d1w, px, py, pz, pw);
    const uz = productZ(d1x, d1y, d1z, d1w, px, py, pz, pw), uw = productW(d1x, d1y, d1z, d1w, px, py, pz, pw);
    // conj(P)·(D1·P): the product with P's vector negated (a − b and a + (−b) round alike, so these are turnLeg's sums).
    const nx = f64x2.neg(px), ny = f64x2.neg(py), nz = f64x2.neg(pz);
    const rx = choose(isRoot, d1x, productX(nx, ny, nz, pw, ux, uy, uz, uw)), ry = choose(isRoot, d1y, productY(nx, ny, nz, pw, ux, uy, uz, uw));
    const rz = choose(isRoot, d1z, productZ(nx, ny, nz, pw, ux, uy, uz, uw)), rw = choose(isRoot, d1w, productW(nx, ny, nz, pw, ux, uy, uz, uw));
    const la = local + ua * POSE + POSE_Q, lb = local + ub * POSE + POSE_Q;
    const qx = gather32(la, lb, 0), qy = gather32(la, lb, 4), qz = gather32(la, lb, 8), qw = gather32(la, lb, 12);
    writeRotations(la, lb, writeB,
      productX(rx, ry, rz, rw, qx, qy, qz, qw), productY(rx, ry, rz, rw, qx, qy, qz, qw),
      productZ(rx, ry, rz, rw, qx, qy, qz, qw), productW(rx, ry, rz, rw, qx, qy, qz, qw));
  }

  // lower: P = D1·Q_p, r = conj(P)·(D2·P), then r·q.
  {
    const ma = model + <usize>load<i32>(parents + (ka << 2)) * RECORD + REC_Q, mb = model + <usize>load<i32>(parents + (kb << 2)) * RECORD + REC_Q;
    const bx = gather(ma, mb, 0), by = gather(ma, mb, 8), bz = gather(ma, mb, 16), bw = gather(ma, mb, 24);
    const px = productX(d1x, d1y, d1z, d1w, bx, by, bz, bw), py = productY(d1x, d1y, d1z, d1w, bx, by, bz, bw);
    const pz = productZ(d1x, d1y, d1z, d1w, bx, by, bz, bw), pw = productW(d1x, d1y, d1z, d1w, bx, by, bz, bw);
    const ux = productX(d2x, d2y, d2z, d2w, px, py, pz, pw), uy = productY(d2x, d2y, d2z, d2w, px, py, pz, pw);
    const uz = productZ(d2x, d2y, d2z, d2w, px, py, pz, pw), uw = productW(d2x, d2y, d2z, d2w, px, py, pz, pw);
    const nx = f64x2.neg(px), ny = f64x2.neg(py), nz = f64x2.neg(pz);
    const sx = productX(nx, ny, nz, pw, ux, uy, uz, uw), sy = productY(nx, ny, nz, pw, ux, uy, uz, uw);
    const sz = productZ(nx, ny, nz, pw, ux, uy, uz, uw), sw = productW(nx, ny, nz, pw, ux, uy, uz, uw);
    const la = local + ka * POSE + POSE_Q, lb = local + kb * POSE + POSE_Q;
    const qx = gather32(la, lb, 0), qy = gather32(la, lb, 4), qz = gather32(la, lb, 8), qw = gather32(la, lb, 12);
    writeRotations(la, lb, writeB,
      productX(sx, sy, sz, sw, qx, qy, qz, qw), productY(sx, sy, sz, sw, qx, qy, qz, qw),
      productZ(sx, sy, sz, sw, qx, qy, qz, qw), productW(sx, sy, sz, sw, qx, qy, qz, qw));
  }
  if (detachedA && (detachedB || !writeB)) return;

  // foot: P = (D2·D1)·Q_p, then conj(P)·Q_f (written as P's conjugate times Q_f, turnLeg's form).
  const ex = productX(d2x, d2y, d2z, d2w, d1x, d1y, d1z, d1w), ey = productY(d2x, d2y, d2z, d2w, d1x, d1y, d1z, d1w);
  const ez = productZ(d2x, d2y, d2z, d2w, d1x, d1y, d1z, d1w), ew = productW(d2x, d2y, d2z, d2w, d1x, d1y, d1z, d1w);
  const ma2 = model + <usize>load<i32>(parents + (fa << 2)) * RECORD + REC_Q, mb2 = model + <usize>load<i32>(parents + (fb << 2)) * RECORD + REC_Q;
  const bx = gather(ma2, mb2, 0), by = gather(ma2, mb2, 8), bz = gather(ma2, mb2, 16), bw = gather(ma2, mb2, 24);
  const px = productX(ex, ey, ez, ew, bx, by, bz, bw), py = productY(ex, ey, ez, ew, bx, by, bz, bw);
  const pz = productZ(ex, ey, ez, ew, bx, by, bz, bw), pw = productW(ex, ey, ez, ew, bx, by, bz, bw);
  const cx = f64x2.neg(px), cy = f64x2.neg(py), cz = f64x2.neg(pz);
  const fa0 = model + fa * RECORD + REC_Q, fb0 = model + fb * RECORD + REC_Q;
  const fx = gather(fa0, fb0, 0), fy = gather(fa0, fb0, 8), fz = gather(fa0, fb0, 16), fw = gather(fa0, fb0, 24);
  writeRotations(detachedA ? 0 : local + fa * POSE + POSE_Q, detachedB ? 0 : local + fb * POSE + POSE_Q, writeB,
    productX(cx, cy, cz, pw, fx, fy, fz, fw), productY(cx, cy, cz, pw, fx, fy, fz, fw),
    productZ(cx, cy, cz, pw, fx, fy, fz, fw), productW(cx, cy, cz, pw, fx, fy, fz, fw));
}

/**
 * (nx, ny, nz, nw) normalized per lane (footLockSystem's `writeRotation`: one division) into the
 * rotation at `la` (lane a) and, when `writeB`, at `lb` (lane b); an address of 0 or a lane whose
 * length is not finite or zero writes nothing.
 */
// @ts-ignore: decorator
@inline function writeRotations(la: usize, lb: usize, writeB: bool, nx: v128, ny: v128, nz: v128, nw: v128): void {
  const len = f64x2.sqrt(f64x2.add(dot3(nx, ny, nz, nx, ny, nz), f64x2.mul(nw, nw)));
  const inv = f64x2.div(f64x2.splat(1), len);
  const x = f64x2.mul(nx, inv), y = f64x2.mul(ny, inv), z = f64x2.mul(nz, inv), w = f64x2.mul(nw, inv);
  const lenA = f64x2.extract_lane(len, 0);
  if (la !== 0 && lenA > 0 && lenA < Infinity) {
    store<f32>(la, <f32>f64x2.extract_lane(x, 0));
    store<f32>(la, <f32>f64x2.extract_lane(y, 0), 4);
    store<f32>(la, <f32>f64x2.extract_lane(z, 0), 8);
    store<f32>(la, <f32>f64x2.extract_lane(w, 0), 12);
  }
  const lenB = f64x2.extract_lane(len, 1);
  if (writeB && lb !== 0 && lenB > 0 && lenB < Infinity) {
    store<f32>(lb, <f32>f64x2.extract_lane(x, 1));
    store<f32>(lb, <f32>f64x2.extract_lane(y, 1), 4);
    store<f32>(lb, <f32>f64x2.extract_lane(z, 1), 8);
    store<f32>(lb, <f32>f64x2.extract_lane(w, 1), 12);
  }
}
