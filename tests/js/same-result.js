// Two engine results are the same (a prepared run's and lab.run's): shared by
// the prepared-run and prepared-runs tests.
import { expect } from 'vitest';

/** Two results are the same: equal fields, and every tensor the same numbers bit for bit (NaN, -0 included). */
export function expectSameResult(got, want) {
  const { tensors: gotTensors, ...gotRest } = got;
  const { tensors: wantTensors, ...wantRest } = want;
  expect(gotRest).toEqual(wantRest);
  expect(Object.keys(gotTensors)).toEqual(Object.keys(wantTensors));
  for (const [name, tensor] of Object.entries(wantTensors)) {
    const other = gotTensors[name];
    expect(other.shape, name).toEqual(tensor.shape);
    expect(other.batch, name).toBe(tensor.batch);
    expect(other.head, name).toBe(tensor.head);
    const differs = tensor.data.findIndex((v, i) => !Object.is(v, other.data[i]));
    expect(differs, `${name}: first element that differs`).toBe(-1);
    expect(other.data.length, name).toBe(tensor.data.length);
  }
  // An alias (masked without a mask, dropped with p 0) is the same object in both.
  for (const [name, tensor] of Object.entries(wantTensors)) {
    const aliasOf = Object.keys(wantTensors).find((other) => other !== name && wantTensors[other] === tensor);
    if (aliasOf) expect(gotTensors[name], `${name} is ${aliasOf}`).toBe(gotTensors[aliasOf]);
  }
}
