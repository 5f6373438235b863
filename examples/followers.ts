/**
 * examples/followers.ts (docs/followers.md): RobotExpressive looks at and reaches for a ball
 * through its follower; a second follower meets a falling ball by prediction.
 * test/examples/guides.test.ts runs it.
 */
// #region imports
import { setFollower, setFollowTarget, setLookAt, setReach } from 'bitanim';

// #endregion
import { setFollowTargetAcceleration, setFollowTargetVelocity, step, type AnimationWorld } from 'bitanim';

/** A point the game moves: position and velocity (world space, metres, m/s). */
export interface Ball { x: number; y: number; z: number; vx: number; vy: number; vz: number }

/** Aims the robot `eid`'s head and right hand at `ball` and steps the first frame of `dt` seconds. */
export function watchAndReach(world: AnimationWorld, eid: number, ball: Ball, dt: number): void {
  // #region aim
  // Without a follower, setLookAt creates one 1 m in front of the head (setReach: on the hand),
  // so nothing moves until the game sets a target.
  setLookAt(world, eid, { joint: 'Head', neck: 'Neck', spine: 'Torso', yawLimit: 1.2 });
  setReach(world, eid, { upper: 'UpperArm.R', lower: 'LowerArm.R', end: 'Palm2.R', weight: 0.8 });
  setFollower(world, eid, { duration: 0.3, interval: 0.1 });        // optional: a quicker follower
  // each frame, or whenever the point of interest moves (world space, metres):
  setFollowTarget(world, eid, ball.x, ball.y, ball.z);
  step(world, dt);                                                   // follow → aim → skin
  // #endregion
}

/** Gives `eid` a predicting follower; returns `frame(dt)`, which moves `ball` (falling) and the follower's target with it. */
export function catchBall(world: AnimationWorld, eid: number, ball: Ball): (dt: number) => void {
  // #region predict
  setFollower(world, eid, { x: 0, y: 1.5, z: 1 });          // T = 0.4 s, sampled every 0.2 s
  setFollower(world, eid, { predict: true });               // meet a moving target (below)
  // #endregion
  return (dt) => {
    ball.x += ball.vx * dt; ball.y += ball.vy * dt - 4.905 * dt * dt; ball.z += ball.vz * dt;
    ball.vy -= 9.81 * dt;
    // #region target
    // each frame, before step:
    setFollowTarget(world, eid, ball.x, ball.y, ball.z);
    setFollowTargetVelocity(world, eid, ball.vx, ball.vy, ball.vz);
    setFollowTargetAcceleration(world, eid, 0, -9.81, 0);     // optional; kept until set again
    // #endregion
    step(world, dt);
  };
}
