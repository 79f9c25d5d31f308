// The fuzzers' dictionary is written from the schema (web/scripts/fuzz-dict.js,
// run by web/scripts/fuzz.sh): it holds every member name a config may have,
// every choice and the names of the map fields, in libFuzzer's syntax.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SCHEMA } from '../../web/model/schema.js';
import { entry, fuzzDictionary } from '../../web/scripts/fuzz-dict.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const handKept = readFileSync(`${root}cpp/fuzz/json.dict`, 'utf8');
const entriesOf = (text) => text.split('\n').filter((line) => line.startsWith('"'));

/** What an entry holds, decoded as libFuzzer does: \\ \" and \xNN escapes (bytes, read as UTF-8). */
function decode(line) {
  const bytes = [];
  const body = line.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      bytes.push(...Buffer.from(body[i]));
    } else if (body[i + 1] === 'x') {
      bytes.push(parseInt(body.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(body.charCodeAt(i + 1));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

describe('the fuzz dictionary', () => {
  const dictionary = fuzzDictionary(SCHEMA, handKept);
  const held = new Set(entriesOf(dictionary).map(decode));

  test('every line is a comment, blank, or an entry in libFuzzer syntax', () => {
    for (const line of dictionary.split('\n'))
      expect(line, line).toMatch(/^(#.*|)$|^"(?:[\x20-\x21\x23-\x5b\x5d-\x7e]|\\\\|\\"|\\x[0-9a-f]{2})*"$/);
  });

  test('holds every key of every field path as a member name', () => {
    expect(SCHEMA.fields.length).toBeGreaterThan(40);
    for (const field of SCHEMA.fields)
      for (const key of field.path.split('.')) expect(held.has(`"${key}":`), `${field.path}: ${key}`).toBe(true);
    // by hand: nested fields bring their objects' names
    for (const name of ['"weights":', '"init":', '"dropout":', '"p":', '"rope":', '"style":'])
      expect(held.has(name), name).toBe(true);
  });

  test('holds every choice, and the names a map field takes as member names', () => {
    for (const field of SCHEMA.fields) {
      const map = field.type === 'matrix-map' || field.type === 'edits-map';
      for (const choice of field.choices ?? [])
        expect(held.has(map ? `"${choice}":` : `"${choice}"`), `${field.path}: ${choice}`).toBe(true);
    }
    for (const name of ['"causal+padding"', '"torch-linear-clones"', '"-inf"', '"W_Q":', '"v_a":'])
      expect(held.has(name), name).toBe(true);
  });

  test('holds the limits and the hand-kept tokens that are no part of the schema', () => {
    for (const limit of Object.values(SCHEMA.limits)) expect(held.has(String(limit)), String(limit)).toBe(true);
    for (const token of ['"randn":', '"$tensor":', 'null', '我']) expect(held.has(token), token).toBe(true);
  });

  test('escapes what libFuzzer must read escaped', () => {
    expect(entry('"a\\b":')).toBe('"\\"a\\\\b\\":"');
    expect(entry('我')).toBe('"\\xe6\\x88\\x91"');
    expect(decode(entry('"注意 <pad>"'))).toBe('"注意 <pad>"');
  });

  // fuzz.sh writes it from the native core's own schema (build/fuzz/schema_dump): when it has run, that
  // dictionary is this one, so the native and the wasm build agree on the schema. npm test runs this file
  // again once its C++ lane has fuzzed, with FUZZ_DICT_REQUIRED=1: then a missing dictionary fails.
  const written = existsSync(`${root}build/fuzz/config.dict`) || process.env.FUZZ_DICT_REQUIRED === '1';
  test.skipIf(!written)("build/fuzz/config.dict is this schema's", () => {
    expect(readFileSync(`${root}build/fuzz/config.dict`, 'utf8')).toBe(dictionary);
  });
});
