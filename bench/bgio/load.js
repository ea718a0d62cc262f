// Players for server.js, the way bench live's players play ours (loopback only):
//
//   node load.js --url http://127.0.0.1:PORT --matches M --moves N --max-seconds S
//                [--warmup-moves 100] [--server-pid PID] [--clk-tck 100] [--seed 1]
//                [--label TEXT] [--storage-label NAME]
//
// One warm-up match first, not counted. Then M matches made through the Lobby API (create,
// both players join), one socket.io connection (WebSocket) per player, each synced, and
// all M matches played at once, N moves each or until S seconds have passed. In a match the
// players alternate and a player moves only once its own connection has shown it the
// previous move: one move in flight per match, as in bench live. A move's latency runs from
// its sending to the mover's own connection receiving the state it made. The server's CPU
// is its utime + stime from /proc over the measured phase. At the end every match's last
// state is checked (pieces placed, who owns each square played, the turn). One JSON line.

const fs = require('fs');
const os = require('os');
const { performance } = require('perf_hooks');
const { io } = require('socket.io-client');
const { Grid, SQUARES } = require('./game');

const MOVE_TIMEOUT_MS = 10000;

function options(argv) {
  const found = {
    url: null, matches: 1, moves: 300, maxSeconds: 50, warmupMoves: 100,
    serverPid: null, clkTck: 100, seed: 12345, label: '', storageLabel: null,
  };
  const numeric = {
    '--matches': 'matches', '--moves': 'moves', '--max-seconds': 'maxSeconds',
    '--warmup-moves': 'warmupMoves', '--server-pid': 'serverPid', '--clk-tck': 'clkTck',
    '--seed': 'seed',
  };
  for (let i = 2; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag in numeric) {
      found[numeric[flag]] = Number(value);
      if (!Number.isFinite(found[numeric[flag]])) throw new Error(`${flag}: not a number`);
    } else if (flag === '--url') found.url = value;
    else if (flag === '--label') found.label = value;
    else if (flag === '--storage-label') found.storageLabel = value;
    else throw new Error(`unknown option ${flag}`);
  }
  const host = new URL(found.url).hostname;
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== 'localhost') {
    throw new Error(`${host} is not loopback`);
  }
  if (!(found.moves >= 1 && found.moves < SQUARES)) throw new Error(`--moves: 1 to ${SQUARES - 1}`);
  return found;
}

// A seeded shuffle of the squares (mulberry32), so every match plays its own order.
function squaresInOrder(seed) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const squares = [...Array(SQUARES).keys()];
  for (let i = SQUARES - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [squares[i], squares[j]] = [squares[j], squares[i]];
  }
  return squares;
}

function cpuSeconds(pid, clkTck) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clkTck; // utime, stime
  } catch {
    return null;
  }
}

async function lobby(url, path, body) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// One player's connection, speaking boardgame.io's socket protocol ('sync', 'update').
class Player {
  constructor(url, matchID, playerID, credentials) {
    Object.assign(this, { matchID, playerID, credentials, stateID: -1, state: null, waiting: [] });
    this.synced = new Promise((resolve) => { this.markSynced = resolve; });
    this.socket = io(`${url}/${Grid.name}`, {
      transports: ['websocket'], forceNew: true, reconnection: false,
    });
    this.socket.on('connect', () => this.socket.emit('sync', matchID, playerID, credentials, 2));
    this.socket.on('sync', (id, info) => {
      if (id !== matchID) return;
      this.received(info.state);
      this.markSynced();
    });
    this.socket.on('update', (id, state) => { if (id === matchID) this.received(state); });
  }

  received(state) {
    if (!state || state._stateID <= this.stateID) return;
    this.stateID = state._stateID;
    this.state = state;
    const now = performance.now();
    this.waiting = this.waiting.filter((w) => {
      if (this.stateID < w.stateID) return true;
      clearTimeout(w.timer);
      w.resolve(now);
      return false;
    });
  }

  // Resolves with the time this connection first held state `stateID`.
  seen(stateID) {
    if (this.stateID >= stateID) return Promise.resolve(performance.now());
    return new Promise((resolve, reject) => {
      const w = { stateID, resolve };
      w.timer = setTimeout(() => {
        this.waiting = this.waiting.filter((x) => x !== w);
        reject(new Error(`match ${this.matchID}: no state ${stateID} (has ${this.stateID})`));
      }, MOVE_TIMEOUT_MS);
      this.waiting.push(w);
    });
  }

  place(square) {
    const action = {
      type: 'MAKE_MOVE',
      payload: { type: 'place', args: [square], playerID: this.playerID, credentials: this.credentials },
    };
    this.socket.emit('update', action, this.stateID, this.matchID, this.playerID);
  }

  close() { this.socket.close(); }
}

async function openMatch(url, seed) {
  const { matchID } = await lobby(url, `/games/${Grid.name}/create`, { numPlayers: 2 });
  const players = [];
  for (const playerID of ['0', '1']) {
    const joined = await lobby(url, `/games/${Grid.name}/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    players.push(new Player(url, matchID, playerID, joined.playerCredentials));
  }
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`match ${matchID}: not synced`)), 10000);
  });
  await Promise.race([Promise.all(players.map((p) => p.synced)), late]);
  clearTimeout(timer);
  return { matchID, players, squares: squaresInOrder(seed) };
}

async function play(match, moves, deadline) {
  const latencies = [];
  for (let i = 0; i < moves && performance.now() <= deadline; i++) {
    const mover = match.players[i % 2];
    try {
      await mover.seen(i); // the previous move, on the mover's own connection
      const sent = performance.now();
      mover.place(match.squares[i]);
      latencies.push((await mover.seen(i + 1)) - sent);
    } catch (error) {
      return { latencies, error: error.message };
    }
  }
  return { latencies, error: null };
}

// What the server last sent either player must be exactly the moves played.
function wrongInFinalState(match, played) {
  const last = match.players.map((p) => p.state).filter(Boolean)
    .sort((a, b) => b._stateID - a._stateID)[0];
  if (!last) return 'no state';
  if (last.G.placed !== played) return `placed ${last.G.placed}, played ${played}`;
  for (let i = 0; i < played; i++) {
    const owner = last.G.cells[match.squares[i]];
    if (owner !== String(i % 2)) return `square ${match.squares[i]} owned by ${owner}`;
  }
  if (last.ctx.turn !== played + 1) return `turn ${last.ctx.turn}, expected ${played + 1}`;
  return null;
}

const ms3 = (x) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function main() {
  const opts = options(process.argv);
  setTimeout(() => {
    console.log(JSON.stringify({ label: opts.label, error: 'hard time limit reached' }));
    process.exit(2);
  }, (opts.maxSeconds + 30) * 1000).unref();

  if (opts.warmupMoves > 0) {
    const warm = await openMatch(opts.url, opts.seed + 100000);
    const done = await play(warm, Math.min(opts.warmupMoves, SQUARES - 1), performance.now() + 15000);
    warm.players.forEach((p) => p.close());
    if (done.error) throw new Error(`warm-up: ${done.error}`);
  }

  const setupStart = performance.now();
  const matches = [];
  for (let i = 0; i < opts.matches; i++) matches.push(await openMatch(opts.url, opts.seed + i));
  const setupSeconds = (performance.now() - setupStart) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 200)); // the connection writes settle

  const serverCpuBefore = opts.serverPid ? cpuSeconds(opts.serverPid, opts.clkTck) : null;
  const ownCpuBefore = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(
    matches.map((m) => play(m, opts.moves, start + opts.maxSeconds * 1000)),
  );
  const wall = (performance.now() - start) / 1000;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const serverCpuAfter = opts.serverPid ? cpuSeconds(opts.serverPid, opts.clkTck) : null;

  const latencies = [];
  const errors = [];
  let truncated = false;
  results.forEach((result, i) => {
    latencies.push(...result.latencies);
    if (result.error) {
      errors.push(result.error);
      return;
    }
    if (result.latencies.length < opts.moves) truncated = true;
    const wrong = wrongInFinalState(matches[i], result.latencies.length);
    if (wrong) errors.push(`match ${matches[i].matchID}: ${wrong}`);
  });
  matches.forEach((m) => m.players.forEach((p) => p.close()));
  latencies.sort((a, b) => a - b);
  const serverCpu = serverCpuBefore !== null && serverCpuAfter !== null
    ? serverCpuAfter - serverCpuBefore : null;
  const moves = latencies.length;
  console.log(JSON.stringify({
    label: opts.label,
    storage: opts.storageLabel,
    client: 'raw',
    transport: 'websocket',
    matches: opts.matches,
    moves_per_match: opts.moves,
    moves_total: moves,
    wall_s: ms3(wall),
    moves_per_s: ms3(moves / wall),
    lat_ms: {
      p50: ms3(percentile(latencies, 50)),
      p90: ms3(percentile(latencies, 90)),
      p99: ms3(percentile(latencies, 99)),
      max: ms3(moves ? latencies[moves - 1] : null),
      mean: ms3(moves ? latencies.reduce((a, b) => a + b, 0) / moves : null),
    },
    server_cpu_s: ms3(serverCpu),
    server_cpu_ms_per_move: serverCpu !== null && moves ? ms3((serverCpu * 1000) / moves) : null,
    load_cpu_s: ms3((ownCpu.user + ownCpu.system) / 1e6),
    setup_s: ms3(setupSeconds),
    warmup_moves: opts.warmupMoves,
    truncated,
    errors: errors.length,
    error_samples: errors.slice(0, 3),
    node: process.version,
    boardgameio: require('boardgame.io/package.json').version,
    nproc: os.availableParallelism ? os.availableParallelism() : os.cpus().length,
    node_env: process.env.NODE_ENV || null,
  }));
  setTimeout(() => process.exit(errors.length ? 1 : 0), 100);
}

main().catch((error) => {
  console.log(JSON.stringify({ error: String(error.message || error) }));
  process.exit(1);
});
