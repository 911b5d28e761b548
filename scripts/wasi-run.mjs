// Runs a wasm32-wasip1 program (a cargo test binary) in node's WASI runtime: the cargo runner
// of scripts/cross-test.sh. Usage: node scripts/wasi-run.mjs PROGRAM.wasm [ARGS...]
// The whole file system is visible as itself (tests read vector files by absolute path).
import { readFile } from 'node:fs/promises';
import { argv, env, exit } from 'node:process';
import { WASI } from 'node:wasi';

const [program, ...args] = argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: [program, ...args], env, preopens: { '/': '/' }, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
