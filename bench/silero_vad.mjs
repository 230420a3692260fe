// Silero VAD (v5 and legacy, as the npm package @ricky0123/vad-web ships them) on quantlens against ONNX Runtime:
// a stream of chunks (16 kHz: 512 samples, 8 kHz: 256) with the recurrent state carried from chunk to chunk in
// both runtimes; every output of every chunk must match within --tol x max |ORT output|. Then the latency of one
// chunk on one thread: ours from build/bench/bench_silero_vad, ONNX Runtime's from this process.
//
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm ci
//   node silero_vad.mjs [--cli ../build/app/quantlens-cli] [--bench ../build/bench/bench_silero_vad]
//                       [--chunks 24] [--iters 300] [--tol 1e-4] [--version 0.0.31]
//
// The models are fetched with `npm pack` into bench/.cache (ignored by git through the .gitignore written there).
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { audioChunk, feedsFor, fetchModels, nextStateName, relativeDiff, runOurs } from './silero_common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const options = {
    cli: path.join(here, '../build/app/quantlens-cli'),
    bench: path.join(here, '../build/bench/bench_silero_vad'),
    chunks: 24,
    iters: 300,
    tol: 1e-4,
    version: '0.0.31',
  };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in options)) throw new Error(`unknown option ${argv[i]}`);
    options[key] = typeof options[key] === 'number' ? Number(argv[++i]) : argv[++i];
  }
  return options;
}

// Streams the chunks through both runtimes, each carrying its own state; returns the worst relative difference.
async function compareStream(session, options, model, rate, dir) {
  const samples = rate === 16000 ? 512 : 256;
  let ortState = {};
  let ourState = {};
  let worst = 0;
  const probabilities = [];
  for (let c = 0; c < options.chunks; ++c) {
    const audio = audioChunk(c, samples, rate);
    const ortOut = await session.run(feedsFor(session, audio, rate, ortState));
    const ours = runOurs(options.cli, model, feedsFor(session, audio, rate, ourState), dir);
    ortState = {};
    ourState = {};
    for (const name of session.outputNames) {
      const mine = ours(name);
      if (mine.data.length !== ortOut[name].data.length) throw new Error(`${name}: shapes differ`);
      worst = Math.max(worst, relativeDiff(mine.data, ortOut[name].data));
      if (nextStateName[name]) {
        ortState[nextStateName[name]] = ortOut[name];
        ourState[nextStateName[name]] = new ort.Tensor('float32', mine.data, mine.shape);
      } else {
        probabilities.push(ortOut[name].data[0]);
      }
    }
  }
  return { worst, lo: Math.min(...probabilities), hi: Math.max(...probabilities) };
}

async function ortLatency(session, iters) {
  let state = {};
  const audio = audioChunk(3, 512, 16000);
  const times = [];
  for (let i = -10; i < iters; ++i) {
    const feeds = feedsFor(session, audio, 16000, state);
    const start = process.hrtime.bigint();
    const out = await session.run(feeds);
    if (i >= 0) times.push(Number(process.hrtime.bigint() - start) / 1e3);
    state = {};
    for (const name of session.outputNames) if (nextStateName[name]) state[nextStateName[name]] = out[name];
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const options = parseArgs(process.argv.slice(2));
let failed = false;
console.log(`${options.chunks} chunks per stream, tolerance ${options.tol} x max |ORT output|, latency: 1 thread, ${options.iters} chunks`);
console.log('model'.padEnd(26) + 'rate'.padStart(7) + 'rel diff'.padStart(11) + '  prob range'.padEnd(18) + 'quantlens us'.padStart(14) + 'ORT us'.padStart(9) + '  verdict');
for (const model of fetchModels(options.version)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-vad-'));
  try {
    const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
    const ours = JSON.parse(execFileSync(options.bench, ['--iters', String(options.iters), model], { encoding: 'utf8' }));
    const theirs = await ortLatency(session, options.iters);
    for (const rate of [16000, 8000]) {
      const r = await compareStream(session, options, model, rate, dir);
      const ok = r.worst <= options.tol;
      failed ||= !ok;
      console.log(
        path.basename(model).padEnd(26) + String(rate).padStart(7) + r.worst.toExponential(2).padStart(11) +
          `  ${r.lo.toFixed(3)}-${r.hi.toFixed(3)}`.padEnd(18) +
          (rate === 16000 ? ours.median_us.toFixed(1) : '').padStart(14) + (rate === 16000 ? theirs.toFixed(1) : '').padStart(9) +
          `  ${ok ? 'match' : 'MISMATCH'}`,
      );
    }
  } catch (e) {
    failed = true;
    console.log(path.basename(model).padEnd(26) + `  MISMATCH (error: ${String(e.message).split('\n')[0]})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
