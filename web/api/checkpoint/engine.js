// The checkpoint wasm (cpp/wasm/checkpoint_bindings.cpp: the piecewise loader
// and the families' forwards), compiled once when a model is first opened;
// each opened model gets an instance of its own, whose memory (the weights)
// goes with it.
import { compileWasm, instantiate } from '../wasm-instance.js';
import { readCheckpointWasm } from './wasm-file.js';

let compiled = null;

const compile = async () => compileWasm(await readCheckpointWasm());

/** A new instance ({setConfig, addShard, plan, put, finish, run}, each returning JSON text). */
export function createCheckpointInstance() {
  compiled ??= compile().catch((error) => {
    compiled = null; // a later open tries again
    throw error;
  });
  return instantiate(import('../generated/attention-lab-checkpoint.js'), compiled);
}
