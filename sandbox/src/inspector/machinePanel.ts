/**
 * The inspector's "State machines" panel: with "drive by state machines" on, the inspected
 * character runs the crowd's machines (crowd/machines.ts: locomotion, and on the Robot the
 * upper-body wave, additive through a mask) and the panel shows, per frame, every machine the
 * character runs — read from its `StateMachine` component: its states (the current one
 * highlighted, a running transition's target marked), the active transition (from → to, its
 * progress) and the seconds in the state — and one control per parameter (a slider for a
 * float, a checkbox for a bool, a button for a trigger) that calls `setParameter` /
 * `fireTrigger`, so a user drives the machines by hand. Off, the character plays what the
 * clip controls choose.
 */
import { fireTrigger, setParameter, setStateMachine, type AnimationWorld, type StateMachine } from 'bitanim';
import { MACHINE_PARAMETERS, NO_MACHINE, PARAM_BOOL, PARAM_FLOAT, PARAM_TRIGGER } from 'bitanim/kernels';
import type { CharacterAsset } from '../assets';
import { crowdMachines, UPPER_LAYER } from '../crowd/machines';
import { checkbox, heading, note, slider } from '../ui';

/** What the panel shows of one machine, for the e2e test and the console. */
export interface MachineView {
  readonly name: string;
  readonly layer: number;
  readonly states: readonly string[];
  readonly state: string;
  readonly next: string | null;
  /** A running transition's elapsed / duration, else null. */
  readonly progress: number | null;
  readonly time: number;
  readonly parameters: Readonly<Record<string, number | boolean>>;
}

/** One machine's rows in the panel. */
interface MachineRows {
  ms: number;
  machine: StateMachine;
  chips: HTMLElement[];
  transition: HTMLElement;
  bar: HTMLElement;
  shown: string;
}

/** One parameter's control. */
interface ParameterControl {
  name: string;
  type: number;
  set(value: number): void;
  /** Pending marker of a trigger. */
  pending?: HTMLElement;
}

/** The panel's look (kept here: style.css is the page's). */
const STYLE = `
#machine-panel .sm-title { margin: 6px 0 2px; color: #cfd6e0; }
#machine-panel .sm-states { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0; }
#machine-panel .sm-state { padding: 1px 8px; border: 1px solid #46526a; border-radius: 10px; color: #a9b3c1; }
#machine-panel .sm-state.current { background: #3d6fb0; border-color: #6b9be0; color: #fff; }
#machine-panel .sm-state.next { border-color: #ffb347; color: #ffb347; border-style: dashed; }
#machine-panel .sm-transition { font: 11px ui-monospace, monospace; color: #a9b3c1; margin: 2px 0; }
#machine-panel .sm-bar { height: 3px; background: #242a33; margin: 0 0 6px; }
#machine-panel .sm-bar i { display: block; height: 3px; width: 0; background: #ffb347; }
#machine-panel .sm-pending { color: #ffb347; font-size: 11px; }
`;

export class MachinePanel {
  private world: AnimationWorld | null = null;
  private eid = 0;
  private asset: CharacterAsset | null = null;
  private body: HTMLElement | null = null;
  private rows: MachineRows[] = [];
  private controls: ParameterControl[] = [];

  /** `enabled`: whether the inspected character runs the machines (`?machines=1`, or the checkbox). */
  constructor(public enabled: boolean) {}

  /**
   * Adds the panel's section to `panel`: the checkbox (which calls `reload` — the inspector
   * makes a new world and calls {@link attach} again) and the machine rows.
   */
  mount(panel: HTMLElement, reload: () => void | Promise<void>): void {
    if (!document.getElementById('machine-panel-style')) document.head.append(Object.assign(document.createElement('style'), { id: 'machine-panel-style', textContent: STYLE }));
    heading(panel, 'State machines');
    checkbox(panel, 'machines', 'drive by state machines', this.enabled, (v) => {
      this.enabled = v;
      void reload();
    });
    note(panel, 'The crowd\'s machines (crowd/machines.ts): locomotion — idle ↔ a walk/run blend space by speed — and, on the Robot, an upper-body wave (additive, masked) on a trigger. Drag "speed" past the threshold, or press a trigger. The clip controls still play over the machine\'s layers until its next switch.');
    this.body = document.createElement('div');
    this.body.id = 'machine-panel';
    panel.append(this.body);
    this.build();
  }

  /** The inspected character of a new world: when enabled, its machines are set (over whatever it plays). */
  attach(world: AnimationWorld, eid: number, asset: CharacterAsset): void {
    this.world = world;
    this.eid = eid;
    this.asset = asset;
    if (this.enabled && asset.locomotion) {
      const machines = crowdMachines(asset, 'inertialize');
      setStateMachine(world, eid, machines.locomotion);
      if (machines.upper) setStateMachine(world, eid, machines.upper.machine, { layer: UPPER_LAYER, mask: machines.upper.mask, additive: true });
    }
    this.build();
  }

  /** The machines the character runs: slot `ms` and its machine, lowest layer first. */
  private running(): { ms: number; machine: StateMachine }[] {
    const world = this.world;
    if (world === null) return [];
    const c = world.components.StateMachine;
    const found: { ms: number; machine: StateMachine }[] = [];
    for (let ms = this.eid * c.slots; ms < (this.eid + 1) * c.slots; ms++) {
      if (c.machine[ms] !== NO_MACHINE) found.push({ ms, machine: world.assets.machines[c.machine[ms]!]!.machine });
    }
    return found.sort((a, b) => c.layer[a.ms]! - c.layer[b.ms]!);
  }

  /** (Re)builds the rows and controls for the machines the character runs now. */
  private build(): void {
    const body = this.body;
    if (body === null) return;
    body.replaceChildren();
    this.rows = [];
    this.controls = [];
    const world = this.world;
    const running = this.running();
    if (world === null || running.length === 0) {
      note(body, this.enabled ? 'This character has no locomotion clips: no machine.' : 'Off: the character plays the clip controls\' choice.');
      return;
    }
    const c = world.components.StateMachine;
    running.forEach(({ ms, machine }, k) => {
      const layer = c.layer[ms]!;
      const title = document.createElement('div');
      title.className = 'sm-title';
      title.textContent = `${machine.name}: layers ${layer}–${layer + machine.width - 1}${c.additive[ms] ? ', additive' : ''}${c.mask[ms]! >= 0 ? ', masked' : ''}`;
      const states = document.createElement('div');
      states.className = 'sm-states';
      states.id = `sm-states-${k}`;
      const chips = machine.stateNames.map((name) => {
        const chip = document.createElement('span');
        chip.className = 'sm-state';
        chip.textContent = name;
        states.append(chip);
        return chip;
      });
      const transition = document.createElement('div');
      transition.className = 'sm-transition';
      transition.id = `sm-transition-${k}`;
      const track = document.createElement('div');
      track.className = 'sm-bar';
      const bar = document.createElement('i');
      track.append(bar);
      body.append(title, states, transition, track);
      this.rows.push({ ms, machine, chips, transition, bar, shown: '' });
    });
    // One control per parameter name: setParameter and fireTrigger reach every machine that declares it.
    const seen = new Set<string>();
    for (const { machine } of running) {
      machine.parameterNames.forEach((name, p) => {
        if (seen.has(name)) return;
        seen.add(name);
        const type = machine.parameterTypes[p]!;
        const id = `sm-param-${name}`;
        if (type === PARAM_FLOAT) {
          const max = name === 'speed' && this.asset?.locomotion ? Math.ceil(this.asset.locomotion.runSpeed * 1.25) : 3;
          const control = slider(body, id, name, { min: 0, max, step: 0.01 }, machine.parameterDefaults[p]!, (v) => setParameter(world, this.eid, name, v), true);
          this.controls.push({ name, type, set: (v) => {
            if (document.activeElement !== control.range && document.activeElement !== control.number) control.set(Number(v.toFixed(2)));
          } });
        } else if (type === PARAM_BOOL) {
          const box = checkbox(body, id, name, machine.parameterDefaults[p]! !== 0, (v) => setParameter(world, this.eid, name, v));
          this.controls.push({ name, type, set: (v) => (box.checked = v !== 0) });
        } else if (type === PARAM_TRIGGER) {
          const button = document.createElement('button');
          button.id = id;
          button.textContent = `fire "${name}"`;
          button.addEventListener('click', () => fireTrigger(world, this.eid, name));
          const pending = document.createElement('span');
          pending.className = 'sm-pending';
          const wrap = document.createElement('label');
          const label = document.createElement('span');
          label.textContent = name;
          wrap.append(label, button, pending);
          body.append(wrap);
          this.controls.push({ name, type, set: () => {}, pending });
        }
      });
    }
  }

  /** Per frame: the states, the transition and the parameters' values, from the component. */
  update(): void {
    const world = this.world;
    if (world === null || this.rows.length === 0) return;
    const c = world.components.StateMachine;
    for (const row of this.rows) {
      const { ms, machine } = row;
      if (c.machine[ms] === NO_MACHINE) continue;
      const state = c.state[ms]!, next = c.next[ms]!;
      const key = `${state}/${next}`;
      if (key !== row.shown) {
        row.chips.forEach((chip, s) => {
          chip.classList.toggle('current', s === state);
          chip.classList.toggle('next', s === next);
        });
        row.shown = key;
      }
      const progress = next === NO_MACHINE ? null : c.elapsed[ms]! / Math.max(c.duration[ms]!, 1e-9);
      row.transition.textContent = progress === null
        ? `in ${machine.stateNames[state]} for ${c.time[ms]!.toFixed(2)} s · no transition`
        : `transition ${machine.stateNames[state]} → ${machine.stateNames[next]}: ${(100 * Math.min(1, progress)).toFixed(0)} % of ${c.duration[ms]!.toFixed(2)} s`;
      row.bar.style.width = `${progress === null ? 0 : 100 * Math.min(1, progress)}%`;
    }
    for (const control of this.controls) {
      const value = this.parameter(control.name);
      if (value === null) continue;
      if (control.type === PARAM_TRIGGER) control.pending!.textContent = value !== 0 ? 'pending' : '';
      else control.set(value);
    }
  }

  /** Parameter `name`'s value on the first machine that declares it (a trigger: 1 while pending), or null. */
  private parameter(name: string): number | null {
    const world = this.world!;
    const c = world.components.StateMachine;
    for (const { ms, machine } of this.rows) {
      const p = machine.parameterIndex.get(name);
      if (p === undefined) continue;
      return machine.parameterTypes[p] === PARAM_TRIGGER ? (c.triggers[ms]! >>> p) & 1 : c.params[ms * MACHINE_PARAMETERS + p]!;
    }
    return null;
  }

  /** What the panel shows, for the e2e test (`window.__sandbox.inspector.machines()`). */
  view(): MachineView[] {
    const world = this.world;
    if (world === null) return [];
    const c = world.components.StateMachine;
    return this.rows.map(({ ms, machine }) => {
      const next = c.next[ms]!;
      const parameters: Record<string, number | boolean> = {};
      machine.parameterNames.forEach((name, p) => {
        const v = this.parameter(name)!;
        parameters[name] = machine.parameterTypes[p] === PARAM_FLOAT ? v : v !== 0;
      });
      return {
        name: machine.name,
        layer: c.layer[ms]!,
        states: machine.stateNames,
        state: machine.stateNames[c.state[ms]!]!,
        next: next === NO_MACHINE ? null : machine.stateNames[next]!,
        progress: next === NO_MACHINE ? null : c.elapsed[ms]! / Math.max(c.duration[ms]!, 1e-9),
        time: c.time[ms]!,
        parameters,
      };
    });
  }
}
