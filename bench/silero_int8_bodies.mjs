// INT8 inside If bodies on models nobody here wrote: Silero VAD v5, v6 and legacy (npm @ricky0123/vad-web) do all
// their work inside the branches of one If on the sample rate. For each model and rate (16 kHz: then_branch, 8 kHz:
// else_branch):
//   1. `quantlens-cli calibrate` on chunks of the test signal at that rate (zero state; `sr` is a scalar input: one
//      value per sample);
//   2. a plan that plans both branches by the default placement ({"bodies": {"<If>": {"then_branch": {},
//      "else_branch": {}}}}), `quantize` for TensorRT 10 weakly typed (no float16 in the file: ONNX Runtime's CPU
//      provider computes float16 in float32, docs/tensorrt-targets.md);
//   3. a stream of chunks, the state carried, through
//      a. the exported model in ONNX Runtime (graph optimizations off: its WeightBiasQuantization would rewrite the
//         float biases of the Q/DQ convolutions),
//      b. the exported model in `quantlens-cli run`,
//      c. the float model in `quantlens-cli run --simulate CALIB.json --plan PLAN.json --fallback fp32` (what the
//         window and `compare` simulate),
//      d. the float model in ONNX Runtime;
//   4. verdicts: the export quantized layers of the branches; (b) vs (c) within --tol x max |output|, (a) vs (b)
//      within --ort-tol (they differ by up to ~1e-4 on v6, not analysed yet);
//      what INT8 costs, (c) vs (d) on the speech probability, for information (it must not be zero: the branches ran
//      quantized).
//   5. under each row, where the error builds up: the accumulated and isolated SQNR of the branch's weighted layers
//      and output (`compare`'s body layers, on the calibration data).
// Exits non-zero when a verdict fails.
//
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm ci
//   node silero_int8_bodies.mjs [--cli ../build/app/quantlens-cli] [--chunks 8] [--tol 1e-4] [--ort-tol 1e-3]
//                               [--version 0.0.31]
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNpy, writeNpyFloat32 } from './npy.mjs';
import { audioChunk, feedsFor, fetchModels, nextStateName, relativeDiff, runOurs } from './silero_common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const options = { cli: path.join(here, '../build/app/quantlens-cli'), chunks: 8, tol: 1e-4, 'ort-tol': 1e-3, version: '0.0.31' };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in options)) throw new Error(`unknown option ${argv[i]}`);
    options[key] = typeof options[key] === 'number' ? Number(argv[++i]) : argv[++i];
  }
  return options;
}

// The one If of each model, on the sample rate.
const ifNode = { 'silero_vad_v5.onnx': 'If_0', 'silero_vad_v6.onnx': 'If_0', 'silero_vad_legacy.onnx': 'If_25' };

// Calibration data: 16 chunks at `rate`, zero state. A state input [2, batch, W] has its batch on axis 1: its file
// lists one sample [2, W] per chunk ([16, 2, W]), and a batch of two stacks them on axis 1 ([2, 2, W]).
function calibrate(cli, model, session, rate, dir) {
  const samples = rate === 16000 ? 512 : 256;
  const args = ['calibrate', model, '--batch', '2', '-o', path.join(dir, 'calib.json'), '--data'];
  const audio = new Float32Array(16 * samples);
  for (let c = 0; c < 16; ++c) audio.set(audioChunk(c, samples, rate), c * samples);
  for (const name of session.inputNames) {
    const file = path.join(dir, `${name}.npy`);
    if (name === 'sr') writeNpy(file, BigInt64Array.from(Array(16).fill(BigInt(rate))), [16], '<i8');
    else if (name === 'input') writeNpyFloat32(file, audio, [16, samples]);
    else {
      const width = name === 'state' ? 128 : 64;
      writeNpyFloat32(file, new Float32Array(16 * 2 * width), [16, 2, width]);
    }
    args.push(`${name}=${file}`);
  }
  execFileSync(cli, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

// Streams the chunks through `runners` (each (feeds) -> output(name) -> data), each carrying its own state; returns
// every runner's outputs per chunk.
async function stream(session, runners, rate, chunks) {
  const samples = rate === 16000 ? 512 : 256;
  const states = runners.map(() => ({}));
  const outputs = runners.map(() => []);
  for (let c = 0; c < chunks; ++c) {
    const audio = audioChunk(c, samples, rate);
    for (let r = 0; r < runners.length; ++r) {
      const out = await runners[r](feedsFor(session, audio, rate, states[r]));
      states[r] = {};
      for (const name of session.outputNames) {
        const { data, dims } = out(name);
        outputs[r].push(data);
        if (nextStateName[name]) states[r][nextStateName[name]] = new ort.Tensor('float32', Float32Array.from(data, Number), dims);
      }
    }
  }
  return outputs;
}

function worstDiff(a, b) {
  return Math.max(...a.map((data, i) => relativeDiff(data, b[i])));
}

// The largest difference of the speech probability (the first output of each chunk) between two runs.
function probabilityDiff(a, b, outputs) {
  let worst = 0;
  for (let i = 0; i < a.length; i += outputs) worst = Math.max(worst, Math.abs(Number(a[i][0]) - Number(b[i][0])));
  return worst;
}

// Where the error builds up: `compare` on the calibration data measures every layer inside the branches (accumulated:
// the whole plan; isolated: each layer alone); printed for the weighted layers and the output of the branch that ran.
function errorAlongTheBranch(cli, model, session, calib, plan, dir) {
  const data = session.inputNames.flatMap((name) => ['--data', `${name}=${path.join(dir, `${name}.npy`)}`]);
  const measure = (mode) =>
    JSON.parse(execFileSync(cli, ['compare', model, '--calib', calib, '--plan', plan, '--batch', '2', '--mode', mode, '--json', ...data], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    })).body_layers || [];
  const alone = new Map(measure('isolated').map((l) => [l.body + l.node, l.sqnr_db]));
  const short = (node) => node.split('/').filter((part) => part && !part.includes('__') && !/^(reparam_conv|Conv)$/.test(part)).join('/');
  const shown = measure('accumulated').filter((l) => ['Conv', 'LSTM', 'Sigmoid'].includes(l.op) && l.sqnr_db !== null && l.sqnr_db < 200);
  const db = (v) => (v === undefined || v === null ? '-' : v.toFixed(1));
  return 'accumulated (alone) SQNR dB along the branch: ' +
    shown.map((l) => `${short(l.node) || l.op} ${db(l.sqnr_db)} (${db(alone.get(l.body + l.node))})`).join(', ');
}

const ortRunner = (session) => async (feeds) => {
  const out = await session.run(feeds);
  return (name) => ({ data: out[name].data, dims: out[name].dims });
};
const cliRunner = (cli, model, dir, extra = []) => async (feeds) => {
  const read = runOurs(cli, model, feeds, dir, extra);
  return (name) => {
    const r = read(name);
    return { data: r.data, dims: r.shape };
  };
};

const options = parseArgs(process.argv.slice(2));
const sessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled' };
let failed = false;
console.log(`${options.chunks} chunks per stream, tolerance ${options.tol} (file vs simulation), ${options['ort-tol']} (ONNX Runtime vs file) x max |output|`);
console.log(
  'model'.padEnd(24) + 'rate'.padStart(6) + '  Q/DQ export'.padEnd(44) + 'ORT vs ours'.padStart(12) + 'file vs sim'.padStart(12) +
    'prob INT8-FP32'.padStart(15) + '  verdict',
);
for (const model of fetchModels(options.version, Object.keys(ifNode))) {
  const name = path.basename(model);
  const fp32 = await ort.InferenceSession.create(model, sessionOptions);
  for (const rate of [16000, 8000]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-vad-int8-'));
    try {
      calibrate(options.cli, model, fp32, rate, dir);
      const plan = path.join(dir, 'plan.json');
      const bodies = { [ifNode[name]]: { then_branch: {}, else_branch: {} } };
      fs.writeFileSync(plan, JSON.stringify({ format: 'quantlens-plan', version: 1, nodes: {}, bodies }));
      const calib = path.join(dir, 'calib.json');
      const exported = path.join(dir, 'q.onnx');
      const summary = execFileSync(
        options.cli,
        ['quantize', model, '--calib', calib, '--plan', plan, '--trt', '8.6', '-o', exported],
        { encoding: 'utf8' },
      );
      const counts = (summary.match(/(\d+ of \d+ weighted layers INT8)/) || ['?'])[0];
      // Before the stream, which writes its chunks over the calibration data's files.
      const along = errorAlongTheBranch(options.cli, model, fp32, calib, plan, dir);
      const quantized = await ort.InferenceSession.create(exported, sessionOptions);
      const [theirs, ours, simulated, float] = await stream(
        fp32,
        [
          ortRunner(quantized),
          cliRunner(options.cli, exported, dir),
          cliRunner(options.cli, model, dir, ['--simulate', calib, '--plan', plan, '--trt', '8.6', '--fallback', 'fp32']),
          ortRunner(fp32),
        ],
        rate,
        options.chunks,
      );
      const ortVsOurs = worstDiff(ours, theirs);
      const fileVsSim = worstDiff(ours, simulated);
      const cost = probabilityDiff(simulated, float, fp32.outputNames.length);
      const int8 = Number((counts.match(/^(\d+)/) || ['0', '0'])[1]);
      const ok = int8 > 0 && ortVsOurs <= options['ort-tol'] && fileVsSim <= options.tol && cost > 0;
      failed ||= !ok;
      console.log(
        name.padEnd(24) + String(rate).padStart(6) + `  ${counts}`.padEnd(44) + ortVsOurs.toExponential(2).padStart(12) +
          fileVsSim.toExponential(2).padStart(12) + cost.toFixed(4).padStart(15) + `  ${ok ? 'match' : 'MISMATCH'}`,
      );
      console.log(`    ${along}`);
    } catch (e) {
      failed = true;
      console.log(name.padEnd(24) + String(rate).padStart(6) + `  MISMATCH (error: ${String(e.message).split('\n')[0]})`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
process.exit(failed ? 1 : 0);
