#!/usr/bin/env node
// perftree's protocol over chessops (npm), for tests only:
//   chessops_perftree.mjs DEPTH FEN [MOVES]   -> `move count` lines, a blank line, the total
// chessops writes castling as the king taking its rook (e1h1), in standard chess too.
import { Chess, normalizeMove } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci, parseUci, squareRank } from 'chessops/util';

const ROLES = ['queen', 'rook', 'bishop', 'knight'];

function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    const pawn = pos.board.get(from).role === 'pawn';
    for (const to of dests) {
      if (pawn && (squareRank(to) === 0 || squareRank(to) === 7)) {
        for (const promotion of ROLES) out.push({ from, to, promotion });
      } else {
        out.push({ from, to });
      }
    }
  }
  return out;
}

function perft(pos, depth) {
  const moves = legalMoves(pos);
  if (depth <= 1) return moves.length;
  let total = 0;
  for (const move of moves) {
    const child = pos.clone();
    child.play(move);
    total += perft(child, depth - 1);
  }
  return total;
}

const [depthText, fen, movesText = ''] = process.argv.slice(2);
const depth = Number(depthText);
const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
for (const uci of movesText.split(' ').filter(Boolean)) {
  pos.play(normalizeMove(pos, parseUci(uci)));  // chesskit's e1g1 reads as castling here
}
let total = 0;
for (const move of legalMoves(pos)) {
  let count = 1;
  if (depth > 1) {
    const child = pos.clone();
    child.play(move);
    count = perft(child, depth - 1);
  }
  total += count;
  console.log(`${makeUci(move)} ${count}`);
}
console.log('');
console.log(String(total));
