#!/usr/bin/env node
// The switchboard CLI. (Filled in by the manager work.)
console.log('switchboard: not built yet');
