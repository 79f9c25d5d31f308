// The single-file builds (dist/attention-lab.html and the standalone element,
// dist/attention-lab-element.standalone.js) have no worker: a file:// page
// cannot start a module worker, and the standalone element must stay one
// script that fetches nothing (a worker of its own would be a second file, or
// a second copy of the engine inlined). Every run happens on the main thread.
export const createEngineWorker = null;
