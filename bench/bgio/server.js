// boardgame.io's own server (its Lobby REST API and its socket.io transport on one port)
// playing game.js, on 127.0.0.1 only.
//
//   node server.js --storage memory|flatfile|flatfile-direct [--dir PATH]
//
// prints {"ready":true,"port":N,...} once it listens on a free port, and serves until
// SIGTERM. Stores:
//   memory           boardgame.io's default InMemory store.
//   flatfile         its FlatFile store as shipped: node-persist, one JSON file per key
//                    (the state, the metadata and the whole log, rewritten at every move,
//                    never fsynced), behind node-persist's write queue, which holds a
//                    write made during a flush until its next one-second tick.
//   flatfile-direct  the same FlatFile with that queue off, each write going to the file
//                    at once: the durable store bench live's ratios are taken against.

const path = require('path');
const { Server, Origins, FlatFile } = require('boardgame.io/server');
const { Grid } = require('./game');

// FlatFile's constructor passes node-persist no `writeQueue` option; its connect() is the
// one place node-persist is initialised, so the write-through store overrides it.
class WriteThroughFlatFile extends FlatFile {
  async connect() {
    await this.games.init({ dir: this.dir, logging: this.logging, ttl: this.ttl, writeQueue: false });
  }
}

function options(argv) {
  const found = { storage: 'memory', dir: path.join(__dirname, 'data') };
  for (let i = 2; i < argv.length; i += 2) {
    if (argv[i] === '--storage') found.storage = argv[i + 1];
    else if (argv[i] === '--dir') found.dir = path.resolve(argv[i + 1]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return found;
}

function store({ storage, dir }) {
  if (storage === 'memory') {
    delete process.env.FLATFILE_DIR; // Server() would take FlatFile where this is set
    return undefined;
  }
  if (storage === 'flatfile') return new FlatFile({ dir, logging: false });
  if (storage === 'flatfile-direct') return new WriteThroughFlatFile({ dir, logging: false });
  throw new Error(`unknown storage ${storage}`);
}

async function main() {
  const opts = options(process.argv);
  const server = Server({ games: [Grid], db: store(opts), origins: [Origins.LOCALHOST] });
  // run() calls app.listen(port, callback), which listens on every interface: loopback only.
  const listen = server.app.listen;
  server.app.listen = (port, callback) => listen.call(server.app, port, '127.0.0.1', callback);
  const running = await server.run({ port: 0 });
  const address = running.appServer.address();
  if (address.address !== '127.0.0.1') throw new Error(`listening on ${address.address}`);
  console.log(JSON.stringify({
    ready: true, port: address.port, pid: process.pid, storage: opts.storage,
    node_env: process.env.NODE_ENV || null,
  }));
  const stop = () => {
    server.kill(running);
    setTimeout(() => process.exit(0), 200).unref(); // open sockets do not hold the exit
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error.stack || error);
  process.exit(1);
});
