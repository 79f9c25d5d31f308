// Single-file build: no worker (a file:// page cannot start a module worker),
// so every run happens on the main thread.
export const createEngineWorker = null;
