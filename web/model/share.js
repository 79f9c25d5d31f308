// Share links: the page state (form + edits) in the URL fragment as
// "#s=v1.<base64url(deflate-raw(JSON))>". Decoding checks every field, so a
// malformed or hostile fragment is reported and never applied.
import { DEFAULT_FORM } from './controls.js';

export const SHARE_VERSION = 'v1';
const MAX_FRAGMENT = 1_000_000;
const MAX_TEXT = 200_000;
const WEIGHT_NAMES = ['W_Q', 'W_K', 'W_V', 'W_O', 'b_Q', 'b_K', 'b_V', 'b_O'];

export class ShareLinkError extends Error {}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

const toBase64Url = (bytes) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64Url = (text) => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareLinkError('the link contains characters that are not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/** The fragment (without '#') for a state {form, edits}: only what differs from the defaults. */
export async function encodeState({ form, edits }) {
  const f = {};
  for (const [key, value] of Object.entries(form)) if (value !== DEFAULT_FORM[key]) f[key] = value;
  const state = { f };
  const e = {};
  if (Object.keys(edits.weights).some((n) => Object.keys(edits.weights[n]).length)) e.w = edits.weights;
  if (Object.keys(edits.embedding).length) e.x = edits.embedding;
  if (Object.keys(e).length) state.e = e;
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  return `s=${SHARE_VERSION}.${toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')))}`;
}

const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

function checkCells(cells, where) {
  if (!isPlainObject(cells)) throw new ShareLinkError(`${where} must be an object`);
  for (const [key, value] of Object.entries(cells)) {
    if (!/^\d{1,8}$/.test(key)) throw new ShareLinkError(`${where} has an invalid index "${key.slice(0, 20)}"`);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new ShareLinkError(`${where}[${key}] must be a finite number`);
  }
}

/** The state in a fragment ("s=v1...."), checked field by field; throws ShareLinkError. */
export async function decodeState(fragment) {
  const text = fragment.replace(/^#/, '');
  if (text.length > MAX_FRAGMENT) throw new ShareLinkError('the link is too long');
  const match = /^s=([a-z0-9]+)\.(.*)$/s.exec(text);
  if (!match) throw new ShareLinkError('the link does not hold an Attention Lab state');
  if (match[1] !== SHARE_VERSION) throw new ShareLinkError(`the link has version "${match[1].slice(0, 10)}", this page reads ${SHARE_VERSION}`);
  let state;
  try {
    const bytes = await pipe(fromBase64Url(match[2]), new DecompressionStream('deflate-raw'));
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    if (error instanceof ShareLinkError) throw error;
    throw new ShareLinkError('the link is damaged (it does not decompress to JSON)');
  }
  if (!isPlainObject(state) || !isPlainObject(state.f ?? {})) throw new ShareLinkError('the link does not hold an Attention Lab state');
  const form = { ...DEFAULT_FORM };
  for (const [key, value] of Object.entries(state.f ?? {})) {
    if (!(key in DEFAULT_FORM)) throw new ShareLinkError(`the link has an unknown setting "${key.slice(0, 40)}"`);
    const expected = typeof DEFAULT_FORM[key];
    const ok = typeof value === expected || (expected === 'number' && typeof value === 'string') || (expected === 'string' && typeof value === 'number');
    if (!ok) throw new ShareLinkError(`the link's setting "${key}" has the wrong type`);
    if (typeof value === 'string' && value.length > MAX_TEXT) throw new ShareLinkError(`the link's setting "${key}" is too long`);
    form[key] = value;
  }
  const edits = { weights: {}, embedding: {} };
  const e = state.e ?? {};
  if (!isPlainObject(e)) throw new ShareLinkError('the link has invalid edits');
  for (const [name, cells] of Object.entries(e.w ?? {})) {
    if (!WEIGHT_NAMES.includes(name)) throw new ShareLinkError(`the link edits an unknown weight "${name.slice(0, 20)}"`);
    checkCells(cells, `edit of ${name}`);
    edits.weights[name] = { ...cells };
  }
  for (const [token, cells] of Object.entries(e.x ?? {})) {
    checkCells(cells, 'embedding edit');
    edits.embedding[token] = { ...cells };
  }
  return { form, edits };
}
