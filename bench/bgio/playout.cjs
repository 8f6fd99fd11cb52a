// Random tic-tac-toe playouts in boardgame.io's reducer, for tabletop's bench (bench/tabletop_bench/_hotpath.py).
// Usage: node playout.cjs GAMES SEED  (boardgame.io resolved from NODE_PATH). Prints one JSON line:
// {"apply_us": µs per reducer call, "playout_us": µs per move incl. legal moves + choice, "moves": n}.
"use strict";
const { InitializeGame, CreateGameReducer } = require("boardgame.io/internal");
const { INVALID_MOVE } = require("boardgame.io/core");

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

// The tic-tac-toe of boardgame.io's own tutorial.
const TicTacToe = {
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    for (const [a, b, c] of LINES) {
      if (G.cells[a] !== null && G.cells[a] === G.cells[b] && G.cells[a] === G.cells[c]) {
        return { winner: ctx.currentPlayer };
      }
    }
    if (G.cells.every((cell) => cell !== null)) return { draw: true };
  },
};

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const games = Number(process.argv[2] || 100);
const random = mulberry32(Number(process.argv[3] || 1));
const reducer = CreateGameReducer({ game: TicTacToe });
let applyNs = 0n;
let loopNs = 0n;
let moves = 0;
for (let round = 0; round < 2; round++) { // the first round warms the JIT up and is not counted
  applyNs = 0n; loopNs = 0n; moves = 0;
  for (let g = 0; g < games; g++) {
    const started = process.hrtime.bigint();
    let state = InitializeGame({ game: TicTacToe, numPlayers: 2 });
    while (state.ctx.gameover === undefined) {
      const legal = [];
      for (let i = 0; i < 9; i++) if (state.G.cells[i] === null) legal.push(i);
      const cell = legal[Math.floor(random() * legal.length)];
      const action = { type: "MAKE_MOVE", payload: { type: "clickCell", args: [cell], playerID: state.ctx.currentPlayer } };
      const before = process.hrtime.bigint();
      state = reducer(state, action);
      applyNs += process.hrtime.bigint() - before;
      moves++;
    }
    loopNs += process.hrtime.bigint() - started;
  }
}
console.log(JSON.stringify({ apply_us: Number(applyNs) / moves / 1000, playout_us: Number(loopNs) / moves / 1000, moves }));
