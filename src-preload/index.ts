// Preload: builds the Api from the contract. (Filled in by the shell work.)
export {};
