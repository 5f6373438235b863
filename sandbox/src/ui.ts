/** Small DOM helpers for the control panel (no framework: labels, selects, sliders). */

export function heading(panel: HTMLElement, text: string): void {
  const h = document.createElement('h3');
  h.textContent = text;
  panel.append(h);
}

export function note(panel: HTMLElement, text: string): HTMLElement {
  const p = document.createElement('p');
  p.className = 'note';
  p.textContent = text;
  panel.append(p);
  return p;
}

function row(panel: HTMLElement, label: string, control: HTMLElement): void {
  const wrap = document.createElement('label');
  const span = document.createElement('span');
  span.textContent = label;
  wrap.append(span, control);
  panel.append(wrap);
}

export function select<T extends string>(
  panel: HTMLElement, id: string, label: string, options: readonly (readonly [T, string])[], value: T, onChange: (value: T) => void,
): HTMLSelectElement {
  const el = document.createElement('select');
  el.id = id;
  for (const [v, text] of options) {
    const option = document.createElement('option');
    option.value = v;
    option.textContent = text;
    el.append(option);
  }
  el.value = value;
  el.addEventListener('change', () => onChange(el.value as T));
  row(panel, label, el);
  return el;
}

export function setOptions(el: HTMLSelectElement, options: readonly string[], value: string): void {
  el.replaceChildren(...options.map((v) => Object.assign(document.createElement('option'), { value: v, textContent: v })));
  el.value = value;
}

export function checkbox(panel: HTMLElement, id: string, label: string, value: boolean, onChange: (value: boolean) => void): HTMLInputElement {
  const el = document.createElement('input');
  el.type = 'checkbox';
  el.id = id;
  el.checked = value;
  el.addEventListener('change', () => onChange(el.checked));
  row(panel, label, el);
  return el;
}

/** A slider with a number box beside it; `onChange` fires on release / enter (`live`: while dragging too). */
export function slider(
  panel: HTMLElement, id: string, label: string, range: { min: number; max: number; step: number }, value: number,
  onChange: (value: number) => void, live = false,
): { range: HTMLInputElement; number: HTMLInputElement; set(value: number): void } {
  const rangeEl = document.createElement('input');
  rangeEl.type = 'range';
  const numberEl = document.createElement('input');
  numberEl.type = 'number';
  numberEl.id = id;
  for (const el of [rangeEl, numberEl]) {
    el.min = String(range.min);
    el.max = String(range.max);
    el.step = String(range.step);
    el.value = String(value);
  }
  rangeEl.id = `${id}-range`;
  numberEl.style.maxWidth = '76px';
  numberEl.style.flex = 'none';
  const clamp = (v: number): number => Math.min(range.max, Math.max(range.min, v));
  rangeEl.addEventListener('input', () => {
    numberEl.value = rangeEl.value;
    if (live) onChange(Number(rangeEl.value));
  });
  rangeEl.addEventListener('change', () => onChange(Number(rangeEl.value)));
  numberEl.addEventListener('change', () => {
    const v = clamp(Number(numberEl.value));
    if (!Number.isFinite(v)) return;
    numberEl.value = String(v);
    rangeEl.value = String(v);
    onChange(v);
  });
  const wrap = document.createElement('label');
  const span = document.createElement('span');
  span.textContent = label;
  wrap.append(span, rangeEl, numberEl);
  panel.append(wrap);
  return {
    range: rangeEl,
    number: numberEl,
    set(v: number) {
      rangeEl.value = String(v);
      numberEl.value = String(v);
    },
  };
}

export function button(panel: HTMLElement, id: string, text: string, onClick: () => void): HTMLButtonElement {
  const el = document.createElement('button');
  el.id = id;
  el.textContent = text;
  el.addEventListener('click', onClick);
  panel.append(el);
  return el;
}
