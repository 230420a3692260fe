// Checks the Q/DQ export end to end on real models (issue 6, "Done when"). For each FP32 model:
//   1. a CALIB.json: --calib FILE before the model, else `quantlens-cli calibrate` on seeded random data
//      (on resources/samples/digits_calib.npy for the sample model);
//   2. `quantlens-cli quantize` (with --trtexec), then `quantlens-cli lint` on the exported model
//      (loading it runs the ONNX checker; zero `error` findings required);
//   3. the same inputs (seeded random, or resources/samples/digits_test.npy for the sample) through
//      a. the exported model in ONNX Runtime (onnxruntime-node, CPU),
//      b. the exported model in `quantlens-cli run`,
//      c. the FP32 model in `quantlens-cli run --simulate CALIB.json` (the same default plan and Q/DQ options);
//   4. verdicts: ORT vs executor on the Q/DQ model within one quantization step of the output
//      (max |diff| <= amax(output) / 127), executor Q/DQ vs simulation within 1e-4 relative to max |sim|,
//      and with --labels the test accuracy in ORT vs the simulated accuracy within 0.3 points.
// Exits non-zero when any check fails.
//
//   cd bench && node check_export.mjs --cli ../build-c/app/quantlens-cli [--calib CALIB.json] MODEL.onnx ...
//       [--data X.npy --labels L.npy] (applies to the next model; the sample model gets its own automatically)
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, safeName, seededFloats, writeNpyFloat32 } from './npy.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const samples = path.join(repo, 'resources', 'samples');

function parseArgs(argv) {
  const options = { cli: '../build/app/quantlens-cli', models: [], randomSamples: 16, relTol: 1e-4, accuracyTol: 0.3 };
  let pending = {};
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--cli') options.cli = argv[++i];
    else if (argv[i] === '--calib') pending.calib = argv[++i];
    else if (argv[i] === '--data') pending.data = argv[++i];
    else if (argv[i] === '--labels') pending.labels = argv[++i];
    else {
      options.models.push({ model: argv[i], ...sampleFiles(argv[i]), ...pending });
      pending = {};
    }
  }
  if (options.models.length === 0) {
    console.error('usage: node check_export.mjs [--cli PATH] [--calib CALIB.json] [--data X.npy --labels L.npy] MODEL...');
    process.exit(2);
  }
  return options;
}

// The sample model comes with calibration data, test data and labels.
function sampleFiles(model) {
  if (path.basename(model) !== 'digits_cnn.onnx') return {};
  return {
    calibData: path.join(samples, 'digits_calib.npy'),
    data: path.join(samples, 'digits_test.npy'),
    labels: path.join(samples, 'digits_test_labels.npy'),
  };
}

const cli = (options, args) => execFileSync(options.cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

// The input: the given .npy, or seeded random values in [-1, 1] of the model's input shape (batch `batch`).
function makeInput(session, dir, file, batch, seed) {
  if (session.inputNames.length !== 1) throw new Error('only single-input models are handled');
  const meta = session.inputMetadata[0];
  if (file) return { name: meta.name, file, ...readNpy(file) };
  const shape = meta.shape.map((d, i) => (typeof d === 'number' && d > 0 ? d : i === 0 ? batch : 1));
  const data = seededFloats(shape.reduce((a, b) => a * b, 1), seed);
  const out = path.join(dir, `input_${seed}.npy`);
  writeNpyFloat32(out, data, shape);
  return { name: meta.name, file: out, data, shape };
}

function argmaxAccuracy(logits, labels) {
  const classes = logits.length / labels.length;
  let correct = 0;
  labels.forEach((label, n) => {
    let best = 0;
    for (let c = 1; c < classes; ++c) if (logits[n * classes + c] > logits[n * classes + best]) best = c;
    if (best === label) ++correct;
  });
  return (100 * correct) / labels.length;
}

// Largest |a - b|, largest |b|, and how many elements differ by more than `step`.
function compareOutputs(a, b, step = Infinity) {
  let diff = 0;
  let magnitude = 0;
  let beyond = 0;
  for (let i = 0; i < a.length; ++i) {
    const d = Math.abs(a[i] - b[i]);
    diff = Math.max(diff, d);
    magnitude = Math.max(magnitude, Math.abs(b[i]));
    if (d > step) ++beyond;
  }
  return { diff, magnitude, beyond, count: a.length };
}

async function checkModel(dir, entry, options) {
  const q = path.join(dir, 'q.onnx');
  let calib = entry.calib;
  const probe = await ort.InferenceSession.create(entry.model);
  if (!calib) {
    calib = path.join(dir, 'calib.json');
    const data = entry.calibData ?? makeInput(probe, dir, undefined, options.randomSamples, 42).file;
    cli(options, ['calibrate', entry.model, '--data', data, '-o', calib, '--threads', '2']);
  }
  // Per-channel ConvTranspose weights (TensorRT 10 axis) in both the export and the simulation, so the check
  // covers that option; both default to per tensor.
  cli(options, ['quantize', entry.model, '--calib', calib, '-o', q, '--trtexec', path.join(dir, 'build.sh'), '--deconv-per-channel']);
  const lint = JSON.parse(cli(options, ['lint', q, '--json']));
  const lintErrors = lint.findings.filter((f) => f.severity === 'error');

  const input = makeInput(probe, dir, entry.data, 2, 4321);
  const session = await ort.InferenceSession.create(q, { intraOpNumThreads: 2 });
  const ortOut = await session.run({ [input.name]: new ort.Tensor('float32', input.data, input.shape) });
  cli(options, ['run', q, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'qdq'), '--threads', '2']);
  cli(options, ['run', entry.model, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'sim'), '--simulate', calib, '--deconv-per-channel']);

  const amax = JSON.parse(fs.readFileSync(calib, 'utf8')).activations;
  const rows = session.outputNames.map((name) => {
    const ours = readNpy(path.join(dir, 'qdq', `${safeName(name)}.npy`)).data;
    const sim = readNpy(path.join(dir, 'sim', `${safeName(name)}.npy`)).data;
    const step = (amax[name]?.amax ?? NaN) / 127;
    const ortVsOurs = compareOutputs(ortOut[name].data, ours, step);
    const oursVsSim = compareOutputs(ours, sim);
    const row = {
      name,
      step,
      ortDiff: ortVsOurs.diff,
      beyond: `${ortVsOurs.beyond}/${ortVsOurs.count}`,
      simRel: oursVsSim.diff / Math.max(oursVsSim.magnitude, 1e-30),
    };
    if (entry.labels) {
      const labels = readNpy(entry.labels).data;
      row.ortAccuracy = argmaxAccuracy(ortOut[name].data, labels);
      row.simAccuracy = argmaxAccuracy(sim, labels);
    }
    return row;
  });
  return { rows, lintErrors, lintWarnings: lint.findings.length - lintErrors.length };
}

const options = parseArgs(process.argv.slice(2));
console.log(
  '| model | output | lint errors | ORT vs executor max abs diff | output step | values > 1 step | Q/DQ vs simulation rel | accuracy ORT / simulated | verdict |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
let failed = false;
for (const entry of options.models) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-export-'));
  try {
    const r = await checkModel(dir, entry, options);
    for (const row of r.rows) {
      const problems = [];
      if (r.lintErrors.length) problems.push(`lint: ${r.lintErrors.map((f) => f.rule).join(', ')}`);
      if (!(row.ortDiff <= row.step)) problems.push('ORT vs executor > one step');
      if (!(row.simRel <= options.relTol)) problems.push('Q/DQ vs simulation > 1e-4');
      let accuracy = '-';
      if (row.ortAccuracy !== undefined) {
        accuracy = `${row.ortAccuracy.toFixed(2)}% / ${row.simAccuracy.toFixed(2)}%`;
        if (!(Math.abs(row.ortAccuracy - row.simAccuracy) <= options.accuracyTol)) problems.push('accuracy gap > 0.3 points');
      }
      if (problems.length) failed = true;
      console.log(
        `| ${path.basename(entry.model)} | ${row.name} | ${r.lintErrors.length} | ${row.ortDiff.toExponential(2)} | ` +
          `${row.step.toExponential(2)} | ${row.beyond} | ${row.simRel.toExponential(2)} | ${accuracy} | ${problems.length ? `FAIL (${problems.join('; ')})` : 'pass'} |`,
      );
    }
  } catch (e) {
    failed = true;
    console.log(`| ${path.basename(entry.model)} | - | - | - | - | - | - | - | FAIL (${String(e.message).split('\n')[0]}) |`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
