import type { CheckpointSource } from '../index.js';

/** Node: the CheckpointSources of a checkpoint folder on disk (config.json, tokenizer.json, *.safetensors). */
export declare function directorySources(dir: string): Promise<CheckpointSource[]>;
