// npm start: find the Electron binary and run the app. (Filled in by the shell work.)
console.log('launch: not built yet');
