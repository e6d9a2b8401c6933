import { startServerProcess, stopWithThisProcess } from '../../scripts/server-process';

// A stand-in for `npm start` (the parent): starts the server process, ties it to its own life,
// prints the server's pid and waits to be stopped.

const [dataDir, port] = process.argv.slice(2);
const server = await startServerProcess({ dataDir: dataDir!, port: Number(port) });
stopWithThisProcess(server);
console.log(JSON.stringify({ pid: server.pid, url: server.url }));
setInterval(() => undefined, 60_000);
