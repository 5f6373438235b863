import type { Application } from 'pixi.js';
export async function startInspector(_app: Application, _panel: HTMLElement, _overlay: HTMLElement, _info: string, _params: URLSearchParams): Promise<Record<string, unknown>> {
  throw new Error('inspector: not yet');
}
