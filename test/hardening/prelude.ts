/**
 * Setup code for the watchdog's worker bodies (plain JavaScript, run on the bundled package as
 * `bitanim`): a two-joint biped and a looping walk with events, small enough to check by hand.
 */
export const PRELUDE = `
const B = bitanim;
const pose = (x, y, z) => [x, y, z, 0, 0, 0, 1, 1, 1, 1];
// hips (the root, 1 m up) → leg.
const skeleton = B.createSkeleton({ names: ['hips', 'leg'], parents: [-1, 0], rest: [...pose(0, 1, 0), ...pose(0, -0.5, 0)] });
// A looping walk of 3 frames at \`rate\` fps (D = 2 / rate): the hips go 0 → d/2 → d along +Z
// (d = \`distance\` metres per cycle), with events at 0 and D / 2.
const walk = (rate, distance = 1, name = 'walk') => B.createClip({
  skeleton, frameRate: rate, loop: true, name,
  events: [{ time: 0, name: 'left' }, { time: 1 / rate, name: 'right' }],
  frames: [...pose(0, 1, 0), ...pose(0, -0.5, 0), ...pose(0, 1, distance / 2), ...pose(0, -0.5, 0), ...pose(0, 1, distance), ...pose(0, -0.5, 0)],
});
const world = B.createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
const eid = B.spawnCharacter(world, skeleton, { rootMotion: true });
const finitePose = () => Array.from(B.getLocalPose(world, eid)).every(Number.isFinite) && Array.from(B.getSkinPalette(world, eid)).every(Number.isFinite);
const refusal = (call) => { try { call(); return 'accepted'; } catch (e) { return e.name + ': ' + e.message; } };
`;
