// Web mode entry: the same core served to a browser on 127.0.0.1. (Filled in by the host work.)
console.log('web mode: not built yet');
