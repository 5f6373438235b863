/**
 * `loadGltfUrl`: a glTF file fetched by URL (a browser, or any runtime with `fetch`), with its
 * external buffers fetched relative to the file's URL and, unless allowed, from its origin only.
 */
import { AnimationError } from '../assets/AnimationError.js';
import { loadGltfWith, type GltfOptions, type GltfResult } from './gltf.js';
import type { ResourceReader } from './gltf/resources.js';

const WHERE = 'loadGltfUrl';

/** What {@link loadGltfUrl} needs of a `fetch` response (the WHATWG `Response` has it). */
export interface GltfFetchResponse {
  /** Whether the request succeeded (HTTP 2xx); otherwise the load fails naming `status`. */
  readonly ok: boolean;
  /** The HTTP status code. */
  readonly status: number;
  /** The HTTP status text, shown in the error when given. */
  readonly statusText?: string;
  /** The response body. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A `fetch`: `globalThis.fetch`, or one of the caller's (with credentials, a cache, a test double). */
export type GltfFetch = (url: string) => Promise<GltfFetchResponse>;

/** Options of {@link loadGltfUrl}: {@link GltfOptions} and how resources are fetched. */
export interface GltfUrlOptions extends GltfOptions {
  /** Fetches the file and its buffers (default `globalThis.fetch`). Called with absolute URLs. */
  fetch?: GltfFetch;
  /**
   * Let buffers come from another origin (http: or https:) than the file's (default false: a
   * buffer URI that resolves to another origin or scheme is refused before it is fetched).
   */
  allowCrossOrigin?: boolean;
}

/**
 * The WHATWG `URL` (a global in browsers and Node ≥ 10), typed here because the package builds
 * against plain ES2022 without DOM typings.
 */
const Url = (globalThis as unknown as { URL: new (url: string, base?: string) => { href: string; protocol: string; host: string; origin: string } }).URL;

/**
 * Fetches a `.glb` or `.gltf` file and the buffers it refers to, resolved against the file's
 * URL, into skeletons, clips and skinned meshes (what {@link loadGltf} returns, with the same
 * options). Meshopt-compressed and quantized files are decoded; the images of skinned meshes' base colour textures are fetched like buffers (bytes, not decoded), others are not.
 *
 * A buffer URI resolving to another origin (scheme, host and port) than the file's is refused
 * unless `allowCrossOrigin` (which still admits only http: and https:); for a file under another
 * scheme (`file:`, served by a custom `fetch`), buffers must lie in its folder. `data:` URIs are
 * decoded, not fetched. A relative `url` is resolved against the page (`location.href`).
 *
 * @throws AnimationError (`loadGltfUrl`) naming the URL (and, for a buffer, its URI) when it is
 * not a URL, is refused, or the fetch fails or answers an HTTP error; and `loadGltf`'s errors
 * for the document itself.
 * @example
 * const fox = await loadGltfUrl('/models/Fox/Fox.gltf', { scale: 'cm' }); // fetches Fox.bin beside it
 */
export async function loadGltfUrl(url: string, options: GltfUrlOptions = {}): Promise<GltfResult> {
  const bad = (path: string, message: string): never => {
    throw new AnimationError(WHERE, [{ path, message }]);
  };
  if (typeof url !== 'string') bad('url', `is ${typeof url}: must be a URL string`);
  if (typeof options !== 'object' || options === null) bad('options', `is ${options === null ? 'null' : typeof options}: must be an object or omitted`);
  const { fetch: given, allowCrossOrigin = false, ...gltf } = options;
  if (given !== undefined && typeof given !== 'function') bad('options.fetch', `is ${typeof given}: must be a fetch function`);
  if (typeof allowCrossOrigin !== 'boolean') bad('options.allowCrossOrigin', `is ${typeof allowCrossOrigin}: must be true or false`);
  const found = given ?? (globalThis as { fetch?: GltfFetch }).fetch;
  const doFetch: GltfFetch = typeof found === 'function' ? found : bad('options.fetch', 'is missing and this runtime has no global fetch');
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  let base: InstanceType<typeof Url>;
  try {
    base = new Url(url, page);
  } catch {
    throw new AnimationError(WHERE, [{ path: 'url', message: `${JSON.stringify(url) ?? String(url)} is not a URL${page ? '' : ' (a relative URL needs a page to resolve against: give an absolute one)'}` }]);
  }
  const bytes = await fetchBytes(doFetch, base.href, (message) => {
    throw new AnimationError(WHERE, [{ path: base.href, message }]);
  });
  const reader: ResourceReader = async (uri, jsonPath) => {
    const no = (why: string): never => {
      throw new AnimationError(WHERE, [{ path: `${base.href} ${jsonPath}`, message: `${JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri)} ${why}` }]);
    };
    let target: InstanceType<typeof Url>;
    try {
      target = new Url(uri, base.href);
    } catch {
      return no('is not a URI reference');
    }
    // Other schemes (file:, app-specific ones a custom fetch serves) have no origin to compare:
    // there, buffers must lie under the file's own folder.
    const web = target.protocol === 'http:' || target.protocol === 'https:';
    const sameOrigin = target.protocol === base.protocol && target.host === base.host
      && (web || target.href.startsWith(new Url('./', base.href).href));
    if (!sameOrigin && !(allowCrossOrigin && web)) {
      no(`resolves to ${target.href}, another origin than the file's (${base.protocol}//${base.host}): refused (pass allowCrossOrigin: true to fetch buffers from other http(s) origins)`);
    }
    return fetchBytes(doFetch, target.href, (message) => no(`(${target.href}) ${message}`));
  };
  return loadGltfWith(bytes, gltf, reader);
}

/** The body of `url`, or a refusal through `no` when the fetch fails or answers an HTTP error. */
async function fetchBytes(doFetch: GltfFetch, url: string, no: (message: string) => never): Promise<Uint8Array> {
  let response: GltfFetchResponse;
  try {
    response = await doFetch(url);
  } catch (error) {
    return no(`could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) no(`could not be fetched: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return no(`could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
