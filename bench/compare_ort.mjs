// Compares quantlens-cli with ONNX Runtime (CPU) on each model: median latency at the same thread count,
// their ratio, and the largest absolute difference between the outputs for the same random inputs, relative
// to the largest magnitude of ONNX Runtime's output. Prints a verdict per model (match / MISMATCH) and exits
// non-zero when any model mismatches or fails, so it can be used as a check.
//
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm ci
//   node compare_ort.mjs [--cli ../build/app/quantlens-cli] [--threads 2] [--iters 20] [--rounds 1] [--tol 1e-4] [--per-output] model.onnx...
//   --rounds R alternates R timings of each runtime (ours, ORT, ours, ...) and reports the medians and the median
//   of the per-round ratios, so a load swing on a shared machine moves both runtimes alike.
//   The cpu columns are the process CPU time per run (ours: quantlens-cli bench's cpu_ms; ORT: this process);
//   at one thread they estimate the idle-machine latency when other jobs share the cores.
//   --per-output prints every output's relative diff in graph order (with tools/expose_outputs.py, to bisect).
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readNpy, safeName, seededFloats, writeNpyFloat32 } from './npy.mjs';

function parseArgs(argv) {
  const options = { cli: '../build/app/quantlens-cli', threads: 2, iters: 20, rounds: 1, tol: 1e-4, perOutput: false, models: [] };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--cli') options.cli = argv[++i];
    else if (argv[i] === '--threads') options.threads = Number(argv[++i]);
    else if (argv[i] === '--iters') options.iters = Number(argv[++i]);
    else if (argv[i] === '--rounds') options.rounds = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--tol') options.tol = Number(argv[++i]);
    else if (argv[i] === '--per-output') options.perOutput = true;
    else options.models.push(argv[i]);
  }
  if (options.models.length === 0) {
    console.error('usage: node compare_ort.mjs [--cli PATH] [--threads N] [--iters N] [--rounds R] [--tol REL] [--per-output] MODEL...');
    process.exit(2);
  }
  return options;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

// The temporary directory is removed even when a run fails.
async function compareModel(model, options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-compare-'));
  try {
    return await compareModelIn(dir, model, options);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function compareModelIn(dir, model, options) {
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: options.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const feeds = {};
  const cliInputs = [];
  session.inputMetadata.forEach((meta, index) => {
    if (meta.type !== 'float32') throw new Error(`input ${meta.name} is ${meta.type}; only float32 inputs are handled`);
    const shape = meta.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const data = seededFloats(shape.reduce((a, b) => a * b, 1), 1234 + index);
    feeds[meta.name] = new ort.Tensor('float32', data, shape);
    const file = path.join(dir, `input_${index}.npy`);
    writeNpyFloat32(file, data, shape);
    cliInputs.push('--input', `${meta.name}=${file}`);
  });

  execFileSync(options.cli, ['run', model, ...cliInputs, '--out', path.join(dir, 'out'), '--threads', String(options.threads)]);
  const ortOutputs = await session.run(feeds);
  // The worst output decides. Non-finite values that differ, an empty output or a reference output without a
  // non-zero finite value would make a "diff 0" meaningless, so they are reported as problems.
  let worst = { maxAbsDiff: 0, maxMagnitude: Infinity, relative: 0 };
  const problems = [];
  for (const name of session.outputNames) {
    const ours = readNpy(path.join(dir, 'out', `${safeName(name)}.npy`)).data;
    const theirs = ortOutputs[name].data;
    if (ours.length !== theirs.length) throw new Error(`output ${name}: ${ours.length} vs ${theirs.length} elements`);
    if (ours.length === 0) problems.push(`${name} is empty`);
    let maxAbsDiff = 0;
    let maxMagnitude = 0;
    let nonFinite = 0;
    for (let i = 0; i < ours.length; ++i) {
      const a = Number(ours[i]);
      const b = Number(theirs[i]);
      if (!Number.isFinite(a) || !Number.isFinite(b)) {
        if (!(Number.isNaN(a) && Number.isNaN(b)) && a !== b) ++nonFinite;
        continue;
      }
      maxAbsDiff = Math.max(maxAbsDiff, Math.abs(a - b));
      maxMagnitude = Math.max(maxMagnitude, Math.abs(b));
    }
    if (nonFinite > 0) problems.push(`${name} has ${nonFinite} non-finite values that differ`);
    if (ours.length > 0 && maxMagnitude === 0) problems.push(`${name} has no non-zero finite value in ONNX Runtime`);
    const relative = maxMagnitude > 0 ? maxAbsDiff / maxMagnitude : maxAbsDiff > 0 ? Infinity : 0;
    if (relative >= worst.relative) worst = { maxAbsDiff, maxMagnitude, relative };
    if (options.perOutput) console.log(`  ${relative.toExponential(2).padStart(10)}  ${maxMagnitude.toExponential(2)}  ${name}`);
  }

  const ours = [];
  const theirs = [];
  for (let round = 0; round < options.rounds; ++round) {
    ours.push(await ourTiming(model, options));
    theirs.push(await ortTiming(session, feeds, options));
  }
  const ratio = median(ours.map((t, i) => t.median / theirs[i].median));
  const cpuRatio = median(ours.map((t, i) => t.cpu / theirs[i].cpu));
  return {
    ours: median(ours.map((t) => t.median)),
    ort: median(theirs.map((t) => t.median)),
    ratio,
    oursCpu: median(ours.map((t) => t.cpu)),
    ortCpu: median(theirs.map((t) => t.cpu)),
    cpuRatio,
    ...worst,
    problems,
  };
}

// Median wall time and mean process CPU time per run, in ms.
async function ourTiming(model, options) {
  const bench = JSON.parse(
    execFileSync(options.cli, ['bench', model, '--json', '--threads', String(options.threads), '--iters', String(options.iters)]),
  );
  return { median: bench.median_ms, cpu: bench.cpu_ms };
}

async function ortTiming(session, feeds, options) {
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  const times = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < options.iters; ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { median: median(times), cpu: (cpu.user + cpu.system) / 1000 / options.iters };
}

const options = parseArgs(process.argv.slice(2));
console.log(`threads ${options.threads}, ${options.iters} timed runs each x ${options.rounds} alternating rounds, tolerance ${options.tol} x max |ORT output|`);
console.log(
  'model'.padEnd(28) + 'quantlens ms'.padStart(14) + 'ORT ms'.padStart(10) + 'ratio'.padStart(8) + 'cpu ms'.padStart(9) +
    'ORT cpu'.padStart(9) + 'cpu ratio'.padStart(10) + 'max |diff|'.padStart(13) +
    'max |out|'.padStart(12) + 'rel diff'.padStart(12) + '  verdict',
);
let failed = false;
for (const model of options.models) {
  try {
    const r = await compareModel(model, options);
    const ok = r.problems.length === 0 && r.relative <= options.tol;
    if (!ok) failed = true;
    const verdict = ok ? 'match' : `MISMATCH${r.problems.length ? ` (${r.problems.join('; ')})` : ''}`;
    console.log(
      path.basename(model).padEnd(28) + r.ours.toFixed(2).padStart(14) + r.ort.toFixed(2).padStart(10) +
        r.ratio.toFixed(2).padStart(8) + r.oursCpu.toFixed(2).padStart(9) + r.ortCpu.toFixed(2).padStart(9) +
        r.cpuRatio.toFixed(2).padStart(10) + r.maxAbsDiff.toExponential(2).padStart(13) +
        r.maxMagnitude.toExponential(2).padStart(12) + r.relative.toExponential(2).padStart(12) + `  ${verdict}`,
    );
  } catch (e) {
    failed = true;
    console.log(path.basename(model).padEnd(28) + `  MISMATCH (error: ${String(e.message).split('\n')[0]})`);
  }
}
process.exit(failed ? 1 : 0);
