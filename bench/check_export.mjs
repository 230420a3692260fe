// Checks the Q/DQ export end to end on real models (issue 6, "Done when"). For each FP32 model:
//   1. a CALIB.json: --calib FILE before the model, else `quantlens-cli calibrate` on seeded random data
//      (on resources/samples/digits_calib.npy for the sample model);
//   2. `quantlens-cli quantize` (with --trtexec and --expose-quantized), then `quantlens-cli lint` on the exported
//      model (loading it runs the ONNX checker; zero `error` findings required);
//   3. the same inputs (seeded random, or resources/samples/digits_test.npy for the sample) through
//      a. the exported model in ONNX Runtime (onnxruntime-node, CPU) and in `quantlens-cli run`,
//      b. the FP32 model in `quantlens-cli run --simulate CALIB.json --fallback fp32` (the same plan and Q/DQ
//         options; float layers in FP32, as both runtimes run the exported model),
//      c. the exposed copy (every activation QuantizeLinear's input and codes are graph outputs) in both runtimes,
//      d. the per-layer copy in both runtimes, fed ORT's codes from (c): every QuantizeLinear computed from the
//         same quantized inputs on both sides;
//   4. verdicts: per layer (d), every int8 code within one step of ORT's; executor Q/DQ vs simulation within 1e-4
//      relative to max |sim|; with labels, the test accuracy in ORT vs the simulated accuracy within 0.3 points.
//      Information only: the codes of whole-model runs (c) (with ORT as specified, with ORT's defaults, and ORT
//      against itself unoptimized), how many codes each runtime's QuantizeLinear gives that differ from the ONNX
//      formula applied to its own input, and the final float outputs in units of amax(output)/127.
// ORT runs "as specified": without its WeightBiasQuantization optimizer, which rewrites the float biases (below).
// Exits non-zero when any check fails. --details prints every quantization point whose codes differ (stderr).
//
//   cd bench && node check_export.mjs --cli ../build-c/app/quantlens-cli [--details] [--calib CALIB.json] MODEL.onnx ...
//       [--data X.npy --labels L.npy] (applies to the next model; the sample model gets its own automatically)
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, safeName, seededFloats, writeNpy, writeNpyFloat32 } from './npy.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const samples = path.join(repo, 'resources', 'samples');

function parseArgs(argv) {
  const options = {
    cli: '../build/app/quantlens-cli',
    models: [],
    randomSamples: 16,
    relTol: 1e-4,
    accuracyTol: 0.3,
    details: false,
  };
  let pending = {};
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--cli') options.cli = argv[++i];
    else if (argv[i] === '--details') options.details = true;
    else if (argv[i] === '--calib') pending.calib = argv[++i];
    else if (argv[i] === '--data') pending.data = argv[++i];
    else if (argv[i] === '--labels') pending.labels = argv[++i];
    else if (argv[i] === '--plan') pending.plan = argv[++i];
    else if (argv[i] === '--trt') options.trt = argv[++i];
    else if (argv[i] === '--typing') options.typing = argv[++i];
    else {
      options.models.push({ model: argv[i], ...sampleFiles(argv[i]), ...pending });
      pending = {};
    }
  }
  if (options.models.length === 0) {
    console.error('usage: node check_export.mjs [--cli PATH] [--details] [--trt 8.6|10|11] [--typing strong|weak] [--calib CALIB.json] [--plan PLAN.json] [--data X.npy --labels L.npy] MODEL...');
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

// --trt/--typing as quantize and lint take them (`withTyping`), or --trt alone (run --simulate).
function targetArgs(options, withTyping) {
  const args = options.trt ? ['--trt', options.trt] : [];
  return withTyping && options.typing ? [...args, '--typing', options.typing] : args;
}
const stronglyTyped = (options) => options.typing ? options.typing === 'strong' : options.trt !== '8.6';
const planArgs = (entry) => (entry.plan ? ['--plan', entry.plan] : []);

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

// ONNX QuantizeLinear on one value, in float32 as the spec and both runtimes compute it: saturate(round half to
// even(x / scale) + zero point). Per-tensor points only (activations are quantized per tensor).
function quantizeCode(x, scale, zeroPoint, lo, hi) {
  const v = Math.fround(x / scale);
  let r = Math.round(v);
  if (r - v === 0.5 && r % 2 !== 0) r -= 1; // Math.round rounds ties up; the spec rounds them to even
  return Math.min(hi, Math.max(lo, r + zeroPoint));
}

// One quantization point: ORT's and our codes side by side, and each runtime's codes against the spec applied
// to its own QuantizeLinear input (a mismatch there would be a QuantizeLinear kernel difference; otherwise code
// differences come from the float values reaching the QuantizeLinear).
function comparePoint(point, ort, ours) {
  const r = { name: point.node, count: ours.codes.length, off1: 0, offMore: 0, maxOff: 0, ortVsSpec: 0, oursVsSpec: 0,
    ortInputOnOurs: 0, maxInputSteps: 0 };
  const lo = ours.codes instanceof Int8Array ? -128 : 0;
  const hi = lo + 255;
  const scale = point.scale[0];
  const zero = point.zero_point[0];
  const checkSpec = point.scale.length === 1 && ort.input && ours.input;
  for (let i = 0; i < r.count; ++i) {
    const d = Math.abs(ort.codes[i] - ours.codes[i]);
    r.maxOff = Math.max(r.maxOff, d);
    if (d === 1) ++r.off1;
    else if (d > 1) ++r.offMore;
    if (!checkSpec) continue;
    if (quantizeCode(ort.input[i], scale, zero, lo, hi) !== ort.codes[i]) ++r.ortVsSpec;
    if (quantizeCode(ours.input[i], scale, zero, lo, hi) !== ours.codes[i]) ++r.oursVsSpec;
    r.maxInputSteps = Math.max(r.maxInputSteps, Math.abs(ort.input[i] - ours.input[i]) / scale);
  }
  return r;
}

// ONNX Runtime as users run it, and as the ONNX spec defines the exported model: ORT's WeightBiasQuantization
// (a level-1 graph optimization) rewrites each float Conv/Gemm bias into an int32 initializer with scale
// s_input * s_weight, which changes the model's numbers by up to half that scale per output (and then lets
// QLinearConv fusion apply); the exported model keeps biases float, as TensorRT wants them.
const ortDefault = { intraOpNumThreads: 2 };
const ortAsSpecified = { ...ortDefault, extra: { optimization: { disable_specified_optimizers: 'WeightBiasQuantization' } } };

async function runOrt(model, input, sessionOptions) {
  const session = await ort.InferenceSession.create(model, sessionOptions);
  const out = await session.run({ [input.name]: new ort.Tensor('float32', input.data, input.shape) });
  return { session, out };
}

// One run of the exposed copy, per quantization point: its codes and its QuantizeLinear input (the model input
// when the point quantizes it directly).
const ortSide = (out, input) => (p) => ({
  codes: out[p.output].data,
  input: p.input_exposed ? out[p.input].data : input.data,
});
function oursSide(dir, input) {
  const read = (name) => readNpy(path.join(dir, 'codes', `${safeName(name)}.npy`)).data;
  return (p) => ({ codes: read(p.output), input: p.input_exposed ? read(p.input) : input.data });
}
// The same of a run of the per-layer copy, where each point's codes are its `local_output`.
const localSide = (side) => (p) => side({ ...p, output: p.local_output });

// Runs the per-layer copy in both runtimes, every quantization point fed `codes` (ORT's run of the exposed
// copy) for the codes it reads: each point is then computed from the same quantized inputs on both sides.
async function runLocal(dir, options, input, points, codes) {
  const local = path.join(dir, 'exposed.local.onnx');
  const feeds = { [input.name]: new ort.Tensor('float32', input.data, input.shape) };
  const args = ['run', local, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'local'), '--threads', '2'];
  fs.mkdirSync(path.join(dir, 'given'), { recursive: true });
  for (const p of points) {
    const t = codes[p.output];
    feeds[p.output] = t;
    const file = path.join(dir, 'given', `${safeName(p.output)}.npy`);
    writeNpy(file, t.data, t.dims, t.type === 'int8' ? '|i1' : '|u1');
    args.push('--input', `${p.output}=${file}`);
  }
  const session = await ort.InferenceSession.create(local, ortAsSpecified);
  const ortOut = await session.run(feeds);
  cli(options, args);
  const read = (name) => readNpy(path.join(dir, 'local', `${safeName(name)}.npy`)).data;
  const ours = (p) => ({ codes: read(p.output), input: p.input_exposed ? read(p.input) : input.data });
  return comparePoints(points, localSide(ortSide(ortOut, input)), localSide(ours));
}
const comparePoints = (points, a, b) => points.map((p) => comparePoint(p, a(p), b(p)));

function sumCodes(points) {
  const total = { points: points.length, count: 0, off1: 0, offMore: 0, maxOff: 0, ortVsSpec: 0, oursVsSpec: 0 };
  for (const p of points) {
    for (const k of ['count', 'off1', 'offMore', 'ortVsSpec', 'oursVsSpec']) total[k] += p[k];
    total.maxOff = Math.max(total.maxOff, p.maxOff);
  }
  return total;
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
  cli(options, ['quantize', entry.model, '--calib', calib, '-o', q, '--trtexec', path.join(dir, 'build.sh'), '--deconv-per-channel',
    '--expose-quantized', path.join(dir, 'exposed.onnx'), ...targetArgs(options, true), ...planArgs(entry)]);
  const lint = JSON.parse(cli(options, ['lint', q, '--json', ...targetArgs(options, true)]));
  const script = fs.readFileSync(path.join(dir, 'build.sh'), 'utf8');
  const scriptFlags = ['--int8', '--fp16', '--best'].filter((f) => script.includes(f));
  const lintErrors = lint.findings.filter((f) => f.severity === 'error');

  const input = makeInput(probe, dir, entry.data, 2, 4321);
  const { session, out: ortOut } = await runOrt(q, input, ortDefault);
  cli(options, ['run', q, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'qdq'), '--threads', '2']);
  const exposed = path.join(dir, 'exposed.onnx');
  cli(options, ['run', exposed, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'codes'), '--threads', '2']);
  const qpoints = JSON.parse(fs.readFileSync(path.join(dir, 'exposed.json'), 'utf8')).points;
  const ours = oursSide(dir, input);
  const ortExposed = (await runOrt(exposed, input, ortAsSpecified)).out;
  const ortSpec = ortSide(ortExposed, input);
  const propagated = comparePoints(qpoints, ortSpec, ours);
  const points = await runLocal(dir, options, input, qpoints, ortExposed);
  const pointsDefault = comparePoints(qpoints, ortSide((await runOrt(exposed, input, ortDefault)).out, input), ours);
  // ORT against itself: the same model without graph optimizations (other kernels, other accumulation orders).
  const ortUnoptimized = { ...ortDefault, graphOptimizationLevel: 'disabled' };
  const pointsOrtSelf = comparePoints(qpoints, ortSpec, ortSide((await runOrt(exposed, input, ortUnoptimized)).out, input));
  // Weakly typed, the file keeps every float layer in float32 (the builder's --fp16 decides), which both runtimes run in
  // FP32; strongly typed, the file carries float16 islands, which the simulation rounds to half as well.
  cli(options, ['run', entry.model, '--input', `${input.name}=${input.file}`, '--out', path.join(dir, 'sim'), '--simulate', calib, '--deconv-per-channel',
    '--fallback', stronglyTyped(options) ? 'fp16' : 'fp32', ...targetArgs(options, false), ...planArgs(entry)]);

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
      ortSteps: ortVsOurs.diff / step,
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
  return {
    rows,
    points,
    codes: sumCodes(points),
    propagated,
    codesPropagated: sumCodes(propagated),
    codesDefault: sumCodes(pointsDefault),
    codesOrtSelf: sumCodes(pointsOrtSelf),
    lintErrors,
    lintWarnings: lint.findings.length - lintErrors.length,
    scriptFlags,
  };
}

function printDetails(entry, label, points) {
  for (const p of points.filter((p) => p.off1 || p.offMore || p.ortVsSpec || p.oursVsSpec))
    console.error(
      `${path.basename(entry.model)} [${label}] ${p.name}: ${p.off1} codes off by 1, ${p.offMore} by more (max ${p.maxOff}); ` +
        `max |Q input ORT - ours| ${p.maxInputSteps.toFixed(3)} steps; codes vs spec of own input: ORT ${p.ortVsSpec}, ours ${p.oursVsSpec}`,
    );
}

const offBy = (c) => `${c.off1} / ${c.offMore}`;
const columns = [
  'model', 'Q nodes', 'codes compared', 'per layer: codes off by 1 / > 1', 'per layer: codes vs spec of own Q input (ORT / ours)',
  'whole model: codes off by 1 / > 1 (max)', 'whole model, ORT defaults: off by 1 / > 1', 'whole model, ORT vs ORT unoptimized: off by 1 / > 1',
  'lint errors', 'output', 'ORT defaults vs executor output max diff (output steps)', 'outputs > 1 step', 'Q/DQ vs simulation rel',
  'accuracy ORT / simulated', 'verdict',
];
const options = parseArgs(process.argv.slice(2));
console.log(`| ${columns.join(' | ')} |`);
console.log(`|${'---|'.repeat(columns.length)}`);
let failed = false;
for (const entry of options.models) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-export-'));
  try {
    const r = await checkModel(dir, entry, options);
    if (options.details) {
      printDetails(entry, 'per layer', r.points);
      printDetails(entry, 'whole model', r.propagated);
    }
    const c = r.codes;
    for (const row of r.rows) {
      const problems = [];
      if (r.lintErrors.length) problems.push(`lint: ${r.lintErrors.map((f) => f.rule).join(', ')}`);
      if (stronglyTyped(options) && r.scriptFlags.length) problems.push(`script has ${r.scriptFlags.join(' ')}`);
      if (c.offMore > 0) problems.push('ORT vs executor codes > one step');
      if (!(row.simRel <= options.relTol)) problems.push('Q/DQ vs simulation > 1e-4');
      let accuracy = '-';
      if (row.ortAccuracy !== undefined) {
        accuracy = `${row.ortAccuracy.toFixed(2)}% / ${row.simAccuracy.toFixed(2)}%`;
        if (!(Math.abs(row.ortAccuracy - row.simAccuracy) <= options.accuracyTol)) problems.push('accuracy gap > 0.3 points');
      }
      if (problems.length) failed = true;
      const cells = [
        path.basename(entry.model), c.points, c.count, offBy(c), `${c.ortVsSpec} / ${c.oursVsSpec}`,
        `${offBy(r.codesPropagated)} (${r.codesPropagated.maxOff})`, offBy(r.codesDefault), offBy(r.codesOrtSelf),
        r.lintErrors.length, row.name, `${row.ortDiff.toExponential(2)} (${row.ortSteps.toFixed(2)})`, row.beyond,
        row.simRel.toExponential(2), accuracy, problems.length ? `FAIL (${problems.join('; ')})` : 'pass',
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  } catch (e) {
    failed = true;
    const cells = [path.basename(entry.model), ...Array(columns.length - 2).fill('-'), `FAIL (${String(e.message).split('\n')[0]})`];
    console.log(`| ${cells.join(' | ')} |`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
