// Share links: settings and edits in the URL fragment as
// "#s=v2.<base64url(deflate-raw(JSON))>", JSON {s: settings, e: edits}.
// Settings are keyed by config path, so the schema decides what a link may
// hold. Decoding checks every key and value before anything is applied, and
// stops inflating at a size cap, so a malformed or hostile fragment is
// reported and never applied. v1 links (the first page's form keys) still open.
import { isLanguageLoaded, translator } from '../i18n/index.js';
import { editsFromJson, editsToJson, emptyEdits } from './edits.js';
import { DEFAULT_SETTINGS } from './presets.js';
import { FIELDS, SCHEMA, fieldByPath, isScalar, isVectorWeight } from './schema.js';

export const SHARE_VERSION = 'v2';
const MAX_FRAGMENT = 1_000_000; // characters of the fragment
const MAX_JSON = 4_000_000; // bytes after inflating: the cap that stops a decompression bomb
const MAX_TEXT = 200_000; // characters of one setting
const WEIGHT_NAMES = fieldByPath.get('weights.edits').choices;

const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isText = (x) => typeof x === 'string' && x.length <= MAX_TEXT;
// Settings given as JSON that a link may hold besides the scalar ones (presets use them):
// a batch or pre-split tokens, the vocab, a random input {"randn" | "rand": [B, S, D]}.
const JSON_SETTING_CHECKS = {
  'string[]': (v) => Array.isArray(v) && v.every(isText),
  'string[][]': (v) => Array.isArray(v) && v.every((row) => Array.isArray(row) && row.every(isText)),
  'random-input': (v) => {
    const [key, ...more] = isPlainObject(v) ? Object.keys(v) : [];
    const shape = v?.[key];
    return (
      (key === 'randn' || key === 'rand') &&
      more.length === 0 &&
      Array.isArray(shape) &&
      shape.length === 3 &&
      shape.every((n) => Number.isInteger(n) && n >= 0)
    );
  },
};
const SETTING_FIELDS = new Map(
  FIELDS.filter((field) => isScalar(field) || JSON_SETTING_CHECKS[field.type]).map((field) => [field.path, field]),
);

/** The reasons a link may not be read, each an i18n key share.error.<code>. */
export const SHARE_ERROR_CODES = [
  'not-base64url',
  'too-long',
  'not-a-state',
  'unknown-setting',
  'wrong-type',
  'setting-too-long',
  'bad-edits',
  'unknown-weight',
  'bad-weight-edit',
  'bad-embedding-edit',
  'version',
  'damaged',
];

/**
 * Why a link could not be read: a code (the i18n key share.error.<code>) and
 * its parameters, so the page shows it in the UI language; the message is
 * the English text (the code where English is not loaded: the Chinese
 * standalone script).
 */
export class ShareLinkError extends Error {
  constructor(code, params = {}) {
    super(isLanguageLoaded('en') ? translator('en')(`share.error.${code}`, params) : `share.error.${code}`);
    this.name = 'ShareLinkError';
    this.code = code;
    this.params = params;
  }
}

const toBase64Url = (bytes) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64Url = (text) => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareLinkError('not-base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

async function deflate(bytes) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw')));
  return new Uint8Array(await out.arrayBuffer());
}

/** Inflates, but gives up as soon as the output passes `cap` bytes. */
async function inflateCapped(bytes, cap) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > cap) {
      await reader.cancel();
      throw new ShareLinkError('too-long');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The fragment (without '#') for {settings, edits}. */
export async function encodeState({ settings, edits }) {
  const state = { s: {} };
  for (const [path, value] of Object.entries(settings)) if (value !== undefined && value !== '') state.s[path] = value;
  const e = editsToJson(edits);
  if (Object.keys(e.weights).length || e.embedding.length) state.e = e;
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  return `s=${SHARE_VERSION}.${toBase64Url(await deflate(bytes))}`;
}

const isFiniteNumber = (x) => typeof x === 'number' && Number.isFinite(x);
const isIndex = (x) => Number.isInteger(x) && x >= 0 && x < SCHEMA.limits.vocab;

function checkSettings(raw) {
  if (!isPlainObject(raw)) throw new ShareLinkError('not-a-state');
  const settings = {};
  for (const [path, value] of Object.entries(raw)) {
    const field = SETTING_FIELDS.get(path);
    if (!field) throw new ShareLinkError('unknown-setting', { setting: path.slice(0, 40) });
    const valid = isScalar(field)
      ? ['string', 'number', 'boolean'].includes(typeof value) ||
        (field.type === 'number|number[]' && Array.isArray(value) && value.every(isFiniteNumber))
      : JSON_SETTING_CHECKS[field.type](value);
    if (!valid) throw new ShareLinkError('wrong-type', { setting: path });
    if (!isScalar(field) && JSON.stringify(value).length > MAX_TEXT)
      throw new ShareLinkError('setting-too-long', { setting: path });
    if (typeof value === 'string' && value.length > MAX_TEXT)
      throw new ShareLinkError('setting-too-long', { setting: path });
    settings[path] = value;
  }
  return settings;
}

function checkEdits(raw) {
  if (raw === undefined) return emptyEdits();
  if (!isPlainObject(raw) || !isPlainObject(raw.weights ?? {}) || !Array.isArray(raw.embedding ?? []))
    throw new ShareLinkError('bad-edits');
  for (const [name, cells] of Object.entries(raw.weights ?? {})) {
    if (!WEIGHT_NAMES.includes(name)) throw new ShareLinkError('unknown-weight', { name: name.slice(0, 20) });
    const arity = isVectorWeight(name) ? 2 : 3;
    const ok =
      Array.isArray(cells) &&
      cells.every(
        (c) => Array.isArray(c) && c.length === arity && c.slice(0, -1).every(isIndex) && isFiniteNumber(c.at(-1)),
      );
    if (!ok) throw new ShareLinkError('bad-weight-edit', { name });
  }
  const tokenOk = (c) =>
    Array.isArray(c) &&
    c.length === 3 &&
    typeof c[0] === 'string' &&
    c[0].length <= MAX_TEXT &&
    isIndex(c[1]) &&
    isFiniteNumber(c[2]);
  if (!(raw.embedding ?? []).every(tokenOk)) throw new ShareLinkError('bad-embedding-edit');
  return editsFromJson(raw);
}

// v1 links held the first page's form: its keys, and edits by flat index or by token and feature.
const V1_PATHS = {
  text: 'text',
  contextText: 'contextText',
  dModel: 'dModel',
  numHeads: 'numHeads',
  seed: 'seed',
  init: 'weights.init',
  layout: 'weights.layout',
  qkvBias: 'weights.qkvBias',
  outProj: 'weights.outProj',
  weightsSeed: 'weights.seed',
  scale: 'scale',
  mask: 'mask',
  maskFill: 'maskFill',
  dropoutP: 'dropout.p',
  dropoutSeed: 'dropout.seed',
  positional: 'embedding.positional',
  maxLen: 'maxLen',
};
function fromV1(state) {
  const f = isPlainObject(state.f) ? state.f : {};
  const settings = {};
  for (const [key, value] of Object.entries(f)) {
    if (key === 'scaleValue') continue;
    if (!Object.hasOwn(V1_PATHS, key)) throw new ShareLinkError('unknown-setting', { setting: key.slice(0, 40) });
    settings[V1_PATHS[key]] = key === 'scale' && value === 'custom' ? (f.scaleValue ?? 0.125) : value;
  }
  // v1 sent qkvBias only when it differed from its form's default, false.
  if (settings['weights.init'] !== undefined && settings['weights.qkvBias'] === undefined)
    settings['weights.qkvBias'] = false;
  const D = Number(settings.dModel ?? 8);
  const weights = {};
  for (const [name, cells] of Object.entries(state.e?.w ?? {}))
    weights[name] = Object.entries(cells ?? {}).map(([k, v]) =>
      name.startsWith('b_') ? [Number(k), v] : [Math.floor(Number(k) / D), Number(k) % D, v],
    );
  const embedding = [];
  for (const [token, cells] of Object.entries(state.e?.x ?? {}))
    for (const [d, v] of Object.entries(cells ?? {})) embedding.push([token, Number(d), v]);
  return { s: settings, e: { weights, embedding } };
}

/** The state in a fragment ("s=v2...."), checked field by field; throws ShareLinkError. */
export async function decodeState(fragment) {
  const text = fragment.replace(/^#/, '');
  if (text.length > MAX_FRAGMENT) throw new ShareLinkError('too-long');
  const match = /^s=([a-z0-9]+)\.(.*)$/s.exec(text);
  if (!match) throw new ShareLinkError('not-a-state');
  if (match[1] !== SHARE_VERSION && match[1] !== 'v1')
    throw new ShareLinkError('version', { version: match[1].slice(0, 10), known: `v1, ${SHARE_VERSION}` });
  let state;
  try {
    const bytes = await inflateCapped(fromBase64Url(match[2]), MAX_JSON);
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    if (error instanceof ShareLinkError) throw error;
    throw new ShareLinkError('damaged');
  }
  if (!isPlainObject(state)) throw new ShareLinkError('not-a-state');
  if (match[1] === 'v1') state = fromV1(state);
  return { settings: checkSettings(state.s ?? {}), edits: checkEdits(state.e) };
}

/**
 * null for an empty fragment; otherwise {settings, edits, error}: the decoded
 * state, or the default example and the ShareLinkError saying why the link
 * could not be read (render it with shareErrorText).
 */
export async function readFragment(fragment) {
  if (!fragment || fragment === '#') return null;
  try {
    return { ...(await decodeState(fragment)), error: null };
  } catch (error) {
    const linkError = error instanceof ShareLinkError ? error : new ShareLinkError('damaged');
    return { settings: { ...DEFAULT_SETTINGS }, edits: emptyEdits(), error: linkError };
  }
}

/** "This link could not be read (…)" in the language of `t`. */
export const shareErrorText = (error, t) => t('share.bad', { reason: t(`share.error.${error.code}`, error.params) });
