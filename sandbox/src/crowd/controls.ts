/** The crowd view's control panel: each control writes its setting and calls the action that applies it. */
import { checkbox, heading, note, select, slider } from '../ui';
import { AUTO_CAPSULE_LIMIT, AUTO_MESH_LIMIT, MAX_CROWD, maxThreads, type CrowdSettings } from './settings';
import type { TimingMode } from './pipeline';

/** What the controls do beyond writing `settings`. */
export interface CrowdActions {
  setCount(n: number): void;
  /** The character kind or the workload changed: load it and start over. */
  reload(): void;
  applyLookAt(): void;
  applyFootLock(): void;
  applyLod(): void;
  setTiming(mode: TimingMode): void;
  /** A new world on `n` threads (the old one disposed). */
  setThreads(n: number): void;
}

/** Adds the crowd's controls to `panel`. */
export function addCrowdControls(panel: HTMLElement, settings: CrowdSettings, actions: CrowdActions): void {
  heading(panel, 'Crowd');
  slider(panel, 'count', 'characters', { min: 0, max: MAX_CROWD, step: 1 }, settings.count, (v) => actions.setCount(v));
  note(panel, `"auto" bodies: the skinned mesh up to ${AUTO_MESH_LIMIT} characters, capsules on every bone up to ${AUTO_CAPSULE_LIMIT.toLocaleString('en-US')}, coarse capsules above (software WebGL pays per triangle).`);
  select(panel, 'character', 'character', [['fox', 'Fox (glTF, skinned mesh)'], ['robot', 'RobotExpressive (capsules)'], ['bench', 'bench rig, 64 joints (capsules)']] as const, settings.character, (v) => {
    settings.character = v;
    actions.reload();
  });
  select(panel, 'body', 'bodies', [['auto', 'auto'], ['mesh', 'skinned mesh'], ['capsules', 'capsules, every bone'], ['coarse', 'capsules, long bones']] as const, settings.body, (v) => (settings.body = v));
  select(panel, 'workload', 'workload', [['locomotion', 'wander (locomotion)'], ['bench', 'bench (2 clips 0.6/0.4)']] as const, settings.workload, (v) => {
    settings.workload = v;
    actions.reload();
  });
  const threadChoices = Array.from({ length: maxThreads() }, (_, i) => [String(i + 1), i === 0 ? '1 (step)' : `${i + 1} (stepParallel)`] as const);
  const threads = select(panel, 'threads', 'threads', threadChoices, String(settings.threads), (v) => actions.setThreads(Number(v)));
  if (!crossOriginIsolated) {
    for (const option of threads.options) option.disabled = option.value !== '1';
    note(panel, 'Threads need SharedArrayBuffer, which this page lacks: it is not cross-origin isolated (serve it with COOP/COEP, as vite.config.ts does).');
  } else {
    note(panel, `Threads: createAnimationWorld({ threads }) and stepParallel — this page and ${maxThreads() - 1} worker(s) share the frame; 1 runs step.`);
  }
  heading(panel, 'Animation');
  select(panel, 'transitions', 'transitions', [['inertialize', 'inertialization (quintic)'], ['spring', 'inertialization (spring)']] as const, settings.transitions, (v) => {
    settings.transitions = v;
    actions.reload();
  });
  note(panel, 'State machines drive the wanderers: idle ↔ a walk/run blend space on the speed the game sets (setParameter), by the transitions above; every tenth Robot also waves through an upper-body mask. The inspector\'s "State machines" panel drives one by hand.');
  checkbox(panel, 'followers', 'followers', settings.followers, (v) => (settings.followers = v));
  checkbox(panel, 'lookat', 'look-at', settings.lookAt, (v) => {
    settings.lookAt = v;
    actions.applyLookAt();
  });
  note(panel, 'Heads (the neck taking a share) look at their follower: setLookAt, solved in step by aimSystem.');
  checkbox(panel, 'footlock', 'foot lock', settings.footLock, (v) => {
    settings.footLock = v;
    actions.applyFootLock();
  });
  note(panel, 'Planted feet stay where they landed while the characters turn and change speed: setFootLock on every wanderer (the Fox\'s four paws, the Robot\'s humanoid legs), the walk\'s and run\'s contacts from detectFootContacts; footLockSystem\'s time is the overlay\'s "footLock".');
  checkbox(panel, 'lod', 'motion LOD', settings.lod, (v) => {
    settings.lod = v;
    actions.applyLod();
  });
  note(panel, 'Colour per LOD level by distance from the view\'s centre: green 0, yellow 1, orange 2, red 3 (clips reduced by bakeLod, levels 1–3 animated every 2nd–4th frame).');
  heading(panel, 'Measure');
  select(panel, 'timing', 'timing', [['chunked', 'per system, chunked (as step)'], ['systems', 'per system, whole crowd (as bench)'], ['step', 'step() as a whole']] as const, settings.timing, (v) => {
    settings.timing = v;
    actions.setTiming(v);
  });
  checkbox(panel, 'paused', 'pause', settings.paused, (v) => (settings.paused = v));
  note(panel, 'Drag to pan, wheel to zoom. The yellow point is the lure the followers chase; blue dots are 24 of the followers.');
}
