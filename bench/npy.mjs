// Helpers shared by the bench scripts: seeded inputs, .npy files, and the output names quantlens-cli writes.
import fs from 'node:fs';

// Seeded values in [-1, 1) so both runtimes see the same inputs (and reruns are comparable).
export function seededFloats(count, seed) {
  const out = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = (state / 4294967296) * 2 - 1;
  }
  return out;
}

// .npy version 1.0 for float32 C-order arrays.
export const writeNpyFloat32 = (file, data, shape) => writeNpy(file, data, shape, '<f4');

// .npy version 1.0 for a C-order typed array; `descr` is its numpy type ('<f4', '|i1', '|u1', ...).
export function writeNpy(file, data, shape, descr) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

// { data, shape } of a little-endian .npy file (float32 / float64 / int64 / int32 / bool / uint8 / int8).
export function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLength;
  const header = bytes.subarray(0, start).toString('latin1');
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter((s) => s.trim() !== '').map(Number);
  const body = bytes.subarray(start);
  const copy = (Type) => new Type(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
  if (header.includes("'<f4'")) return { data: copy(Float32Array), shape };
  if (header.includes("'<f8'")) return { data: copy(Float64Array), shape };
  if (header.includes("'<i8'")) return { data: Array.from(copy(BigInt64Array), Number), shape };
  if (header.includes("'<i4'")) return { data: copy(Int32Array), shape };
  if (header.includes("'|b1'") || header.includes("'|u1'")) return { data: copy(Uint8Array), shape };
  if (header.includes("'|i1'")) return { data: copy(Int8Array), shape };
  throw new Error(`${file}: unsupported dtype in ${header}`);
}

// The file name quantlens-cli run gives an output (unsafe characters replaced by '_').
export const safeName = (name) => {
  const s = (name || '_').replace(/[^A-Za-z0-9._-]/g, '_');
  return s === '.' || s === '..' ? '_' : s;
};
