// Electron composition root. (Filled in by the shell work.)
export {};
