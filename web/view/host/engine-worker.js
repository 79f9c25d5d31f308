// Runs the engine off the main thread, so a 512-token run never freezes the
// page; what it does with each message is engine-calls.js. Tensor buffers are
// transferred, not copied.
import { createEngineCalls } from './engine-calls.js';

const calls = createEngineCalls();
self.onmessage = ({ data }) => calls.answer(data, (message, transfer) => self.postMessage(message, transfer));
