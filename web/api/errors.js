// The API's errors of a config or an input file: a field, a code of the
// engine's catalog (SCHEMA.errors, cpp/core/errors.cpp) and its params, so a
// UI can say it in another language (web/i18n). Its own file so that parts of
// the API (the checkpoint tokenizer) throw the same error without importing
// the engine. The engine's own failure (a trap) is an AttentionEngineError.
import { SCHEMA } from './generated/schema.js';

/** The English message of error `code` (SCHEMA.errors) with its {placeholders} filled from `params`. */
export function messageOf(code, params) {
  const template = SCHEMA.errors.find((kind) => kind.code === code)?.message ?? code;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? params[name] : whole));
}

// An engine error or warning ({code, params, message}) whose message the engine's wasm left empty: it
// carries no English (cpp/core/errors.cpp), so the message is filled here from the code's template.
const withMessage = (key, value) =>
  value !== null && typeof value === 'object' && value.message === '' && typeof value.code === 'string'
    ? { ...value, message: messageOf(value.code, value.params ?? {}) }
    : value;

/** JSON the engine wrote (a result, an error), each error's and warning's message filled in. */
export const parseEngineJson = (text) =>
  text.includes('"message":""') ? JSON.parse(text, withMessage) : JSON.parse(text);

/** An error object the engine handed over as a value ({field, code, params, message}), its message filled in. */
export const engineError = (error) => withMessage('', error);

/**
 * A config the engine cannot run; `field` names the culprit ("dModel",
 * "weights.values.W_Q[0][1]"), `code` says what is wrong ("out-of-range",
 * one of SCHEMA.errors) and `params` holds the named values of the message
 * ({field, got, min, max}), so a UI can say it in another language.
 */
export class AttentionConfigError extends Error {
  constructor(field, message, code = undefined, params = {}) {
    super(message);
    this.name = 'AttentionConfigError';
    this.field = field;
    this.code = code;
    this.params = params;
  }

  /** The error `code` of SCHEMA.errors on `field`, its message from the code's English template. */
  static of(field, code, params = {}) {
    return new AttentionConfigError(field, messageOf(code, params), code, params);
  }
}

/**
 * The engine stopped while running (it ran out of memory, or a bug trapped
 * it). The instance was discarded and a fresh one is starting: await
 * loadAttentionLab() (or lab.ready) and run again.
 */
export class AttentionEngineError extends Error {
  constructor(message, cause, code = undefined) {
    super(message, { cause });
    this.name = 'AttentionEngineError';
    this.field = 'engine';
    this.code = code;
    this.params = {};
  }

  /** The error `code` of SCHEMA.errors ("engine-out-of-memory"), its message from the code's English template. */
  static of(code, cause) {
    return new AttentionEngineError(messageOf(code, {}), cause, code);
  }
}
