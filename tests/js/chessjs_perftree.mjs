#!/usr/bin/env node
// perftree's protocol over chess.js (npm), for tests only:
//   chessjs_perftree.mjs DEPTH FEN [MOVES]   -> `move count` lines, a blank line, the total
// Standard chess only (chess.js has no Chess960).
import { Chess } from 'chess.js';

function uci(move) {
  return move.from + move.to + (move.promotion || '');
}

const [depthText, fen, movesText = ''] = process.argv.slice(2);
const depth = Number(depthText);
const game = new Chess(fen);
for (const text of movesText.split(' ').filter(Boolean)) {
  game.move({ from: text.slice(0, 2), to: text.slice(2, 4), promotion: text.slice(4) || undefined });
}
let total = 0;
for (const move of game.moves({ verbose: true })) {
  let count = 1;
  if (depth > 1) {
    game.move(move);
    count = game.perft(depth - 1);
    game.undo();
  }
  total += count;
  console.log(`${uci(move)} ${count}`);
}
console.log('');
console.log(String(total));
