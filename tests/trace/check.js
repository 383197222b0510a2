// Readers of micdb's traces for tests/trace.sh (doc/debugger.md section
// 5), in Node.js, which the suite already needs for the DAP tests:
//
//   node check.js perfetto FILE
//       checks the Trace Event Format: every event has a known phase,
//       the timestamps ascend on each track, B and E nest; prints "ok"
//       or the first problem (exit 1);
//   node check.js counters FILE STEP
//       the machine's counters at STEP (the last value written at or
//       before it): "efficiency E running R waiting W halted H faulted F"
//   node check.js vcd FILE SCOPE
//       reads a VCD (as fst2vcd writes it back) and prints, for every
//       time, the values of SCOPE's signals after it, one line a time:
//       "T NAME=hex NAME=hex ..." in the order the file declares them,
//       a line for every time unit from the first to the last;
//   node check.js datapath LEVEL TRANSCRIPT FILE SCOPE
//       the datapath signals of a one-core VCD (as fst2vcd writes it back)
//       against the golden model: TRANSCRIPT is --batch output with
//       `info registers` before the first cycle and after each; for
//       every cycle the ALU's (Mic-1) or compute units' (PMIC) inputs
//       are the registers before it that the word's fields name, the
//       result is the function of the word (computed here, from
//       doc/mic1.md and doc/pmic.md, not by micdb), N and Z after the
//       cycle are the result's, and every register the C bus enables
//       holds the result after it; at PMIC the next address is the one
//       the next-address word gives.  Prints "ok N cycles" or the first
//       difference (exit 1);
//   node check.js dap MICDB PROGRAM CORES FILE
//       runs micdb --dap, launches PROGRAM on CORES cores (reference
//       engine, stopped on entry), and through evaluate (the REPL) says
//       trace start FILE, continue and, once the run has ended, trace
//       stop; prints what trace stop answered.
'use strict';
const fs = require('fs');

function fail(msg) {
	console.log(msg);
	process.exit(1);
}

function perfetto(file) {
	let j;
	try {
		j = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (e) {
		fail('not JSON: ' + e.message);
	}
	if (!Array.isArray(j.traceEvents))
		fail('no traceEvents array');
	const phases = new Set(['B', 'E', 'X', 'i', 'C', 'M']);
	const last = new Map(), stacks = new Map();
	let n = 0;
	for (const e of j.traceEvents) {
		n++;
		if (!phases.has(e.ph))
			fail(`event ${n}: unknown phase ${e.ph}`);
		if (e.ph === 'M')
			continue;
		if (typeof e.ts !== 'number' || e.ts < 0)
			fail(`event ${n}: no timestamp`);
		// a counter is a track of its own; slices and instants share
		// their thread's
		const track = e.ph === 'C' ? `C ${e.pid} ${e.name}` :
		    `T ${e.pid} ${e.tid}`;
		if (last.has(track) && e.ts < last.get(track))
			fail(`event ${n}: time ${e.ts} before ${last.get(track)} ` +
			    `on track ${track}`);
		last.set(track, e.ts);
		if (e.ph === 'B' || e.ph === 'E') {
			const st = stacks.get(track) || [];
			if (e.ph === 'B') {
				if (typeof e.name !== 'string')
					fail(`event ${n}: a slice without a name`);
				st.push(e.name);
			} else if (st.length === 0)
				fail(`event ${n}: E without its B on ${track}`);
			else
				st.pop();
			stacks.set(track, st);
		}
		if (e.ph === 'X' && !(e.dur >= 0))
			fail(`event ${n}: X without a duration`);
		if (e.ph === 'C' && (typeof e.args !== 'object' ||
		    Object.values(e.args).some((v) => typeof v !== 'number')))
			fail(`event ${n}: a counter without numbers`);
	}
	for (const [track, st] of stacks)
		if (st.length > 0)
			fail(`track ${track}: ${st.length} slices never end`);
	console.log('ok');
}

function counters(file, step) {
	const j = JSON.parse(fs.readFileSync(file, 'utf8'));
	let eff = null, cores = null;
	for (const e of j.traceEvents) {
		if (e.ph !== 'C' || e.ts > step)
			continue;
		if (e.name === 'SIMD efficiency')
			eff = e.args.percent;
		if (e.name === 'cores')
			cores = e.args;
	}
	if (eff === null || cores === null)
		fail(`no counters at step ${step}`);
	console.log(`efficiency ${eff.toFixed(1)} running ${cores.running} ` +
	    `waiting ${cores.waiting} halted ${cores.halted} faulted ` +
	    `${cores.faulted}`);
}

// The values of SCOPE's signals after every time unit of a VCD:
// { names: [...], rows: [Map name -> hex string or 'x'] }, rows[t].
function vcdRows(file, scope) {
	const words = fs.readFileSync(file, 'utf8').split(/\s+/);
	const names = new Map(), order = [], value = new Map();
	let i = 0, path = [];
	for (; i < words.length && words[i] !== '$enddefinitions'; i++) {
		if (words[i] === '$scope') {
			path.push(words[i + 2]);
			i += 3;
		} else if (words[i] === '$upscope') {
			path.pop();
			i++;
		} else if (words[i] === '$var') {
			const id = words[i + 3], name = words[i + 4];
			if (path[path.length - 1] === scope) {
				names.set(id, name);
				order.push(id);
			}
			while (words[i] !== '$end')
				i++;
		}
	}
	if (order.length === 0)
		fail(`no scope ${scope}`);
	let time = null;
	const rows = [];
	const row = () => new Map(order.map((id) => [names.get(id),
	    value.has(id) ? value.get(id) : 'x']));
	// the values of time hold until the next time stamp
	const flush = (next) => {
		if (time === null)
			return;
		for (let t = time; t < next; t++)
			rows[t] = row();
	};
	for (i++; i < words.length; i++) {
		const w = words[i];
		if (w === '' || w.startsWith('$'))
			continue;
		if (w[0] === '#') {
			const t = Number(w.slice(1));
			flush(t);
			time = t;
		} else if (w[0] === 'b' || w[0] === 'B') {
			const id = words[++i];
			if (names.has(id))
				value.set(id, /[xz]/i.test(w) ? 'x' :
				    BigInt('0b' + w.slice(1)).toString(16));
		} else if (/^[01xz]/i.test(w)) {
			const id = w.slice(1);
			if (names.has(id))
				value.set(id, /[xz]/i.test(w[0]) ? 'x' : w[0]);
		}
	}
	// the last stamp is the end of the last step (trace-vcd.c)
	return { names: order.map((id) => names.get(id)), rows };
}

function vcd(file, scope) {
	const { names, rows } = vcdRows(file, scope);
	const out = [];
	rows.forEach((r, t) => out.push(t + ' ' +
	    names.map((n) => n + '=' + r.get(n)).join(' ')));
	console.log(out.join('\n'));
}

// `info registers` blocks of a --batch transcript, by micro-cycles:
// regs[cycle] = { NAME: unsigned value, read: a READ in flight after }.
function golden(file) {
	const regs = [];
	let cur = null;
	for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
		let m = /^core 0 \(warp.*, (\d+) micro-cycles?$/.exec(l);
		if (m) {
			cur = { read: false };
			regs[Number(m[1])] = cur;
		} else if (cur && (m = /^([A-Z]+) +0x([0-9a-f]+) /.exec(l)))
			cur[m[1]] = Number('0x' + m[2]);
		else if (cur && /^pending:/.test(l))
			cur.read = /READ/.test(l);
		else if (/^\(micdb\)/.test(l))
			cur = null;
	}
	return regs;
}

const u32 = (v) => v >>> 0;
const sx8 = (v) => u32((v & 0xff) << 24 >> 24);
const sx16 = (v) => u32((v & 0xffff) << 16 >> 16);

// doc/mic1.md section 1
const MIC_B = ['MDR', 'PC', 'MBR', 'MBRU', 'SP', 'LV', 'CPP', 'TOS', 'OPC'];
const MIC_C = ['MAR', 'MDR', 'PC', 'SP', 'LV', 'CPP', 'TOS', 'OPC', 'H'];
function micBus(b, r) {
	if (b === 2)
		return sx8(r.MBR);
	if (b === 3)
		return r.MBR & 0xff;
	return b < MIC_B.length ? r[MIC_B[b]] : 0;
}
function micAlu(alu, h, bus) {
	let a = alu & 0x08 ? h : 0;
	const b = alu & 0x04 ? bus : 0;
	if (alu & 0x02)
		a = u32(~a);
	const f = [a & b, a | b, ~b, a + b][(alu >> 4) & 3];
	return u32(f + (alu & 1));
}
function micShift(alu, v) {
	if (alu & 0x80)
		v = u32(v << 8);
	if (alu & 0x40)
		v = u32((v >>> 1) | (v & 0x80000000));
	return v;
}

// doc/pmic.md, the encoding
const PM_C = ['MAR', 'MDR', 'PC', 'SP', 'LV', 'CPP', 'TOS', 'OPC', 'H', 'G0',
    'G1'];
function pmReg(n, r) {
	const byte = (i) => (r.MBR >>> (24 - 8 * i)) & 0xff;
	const named = ['MAR', 'MDR', 'PC', 'MBR'];
	if (n < 4)
		return r[named[n]];
	if (n < 8)
		return byte(n - 4);
	if (n === 8)
		return sx8(byte(1));
	if (n === 9)
		return byte(1) << 8 | byte(2);
	if (n === 10)
		return sx16(byte(1) << 8 | byte(2));
	const rest = ['SP', 'LV', 'CPP', 'TOS', 'OPC', 'H', 'G0', 'G1'];
	if (n < 19)
		return r[rest[n - 11]];
	if (n < 23)
		return n - 17;
	return 0;	/* SID of core 0, and 24-31 */
}
function pmAlu(op, a, b) {
	return u32([0, 1, -1, a, a + b, a + b + 1, a + 1, a - 1, a - b, -a, ~a,
	    a & b, a | b, a << 8, (a | 0) >> 8, (a | 0) >> 1][op]);
}

function datapath(level, transcript, file, scope) {
	const regs = golden(transcript);
	const { rows } = vcdRows(file, scope);
	const hex = (r, n) => {
		if (!r.has(n) || r.get(n) === 'x')
			fail(`no value of ${n}`);
		return Number('0x' + r.get(n));
	};
	let n = 0;
	for (let t = 1; t < regs.length; t++) {
		const before = regs[t - 1], after = regs[t], v = rows[t];
		if (!before || !after || !v)
			continue;
		const want = (what, got, exp) => {
			if (got !== exp)
				fail(`cycle ${t}: ${what} is ${got.toString(16)}, ` +
				    `the golden model says ${exp.toString(16)}`);
		};
		if (level === 'mic') {
			const alu = hex(v, 'MIR_ALU'), b = hex(v, 'MIR_B');
			const cbits = hex(v, 'MIR_C');
			const out = micAlu(alu, before.H, micBus(b, before));
			want('ALU_A', hex(v, 'ALU_A'), before.H);
			want('ALU_B', hex(v, 'ALU_B'), micBus(b, before));
			want('B_EN', hex(v, 'B_EN'), b <= 8 ? 1 << b : 0);
			want('ALU_OUT', hex(v, 'ALU_OUT'), out);
			want('N', after.N, out >>> 31);
			want('Z', after.Z, out === 0 ? 1 : 0);
			want('C_BUS', hex(v, 'C_BUS'), micShift(alu, out));
			MIC_C.forEach((r, i) => {
				// a READ completing in the cycle overwrites MDR
				if (cbits >> i & 1 && !(r === 'MDR' && before.read))
					want(`${r} from the C bus`, after[r],
					    hex(v, 'C_BUS'));
			});
		} else {
			const g = (row) => ({ G0: hex(row, 'G0'), G1: hex(row, 'G1') });
			const rb = Object.assign({}, before, g(rows[t - 1]));
			const ra = Object.assign({}, after, g(v));
			for (let u = 0; u < 3; u++) {
				const w = hex(v, `CU${u}`), en = w >> 26 & 1;
				const a = en ? pmReg(w & 31, rb) : 0;
				const b = en ? pmReg(w >> 5 & 31, rb) : 0;
				const out = en ? pmAlu(w >> 21 & 15, a, b) : 0;
				want(`CU${u}_A`, hex(v, `CU${u}_A`), a);
				want(`CU${u}_B`, hex(v, `CU${u}_B`), b);
				want(`CU${u}_OUT`, hex(v, `CU${u}_OUT`), out);
				if (u === 0 && en) {
					want('N', after.N, out >>> 31);
					want('Z', after.Z, out === 0 ? 1 : 0);
				}
				const cu1read = hex(v, 'CU1') >> 25 & 1;
				PM_C.forEach((r, i) => {
					if (en && w >> (10 + i) & 1 &&
					    !(r === 'MDR' && cu1read))
						want(`${r} from CU${u}`, ra[r], out);
				});
			}
			// the next address (doc/pmic.md): MBR0 as the fetch left it
			const nx = hex(v, 'NEXT');
			let mpc = nx & 0x1ff;
			if (nx >> 11 & 1)
				mpc |= after.MBR >>> 24;
			if ((nx >> 10 & 1 && after.N) || (nx >> 9 & 1 && after.Z))
				mpc ^= 0x100;
			want('MPC (the next address)', after.MPC, mpc & 0x1ff);
		}
		n++;
	}
	if (n === 0)
		fail('no cycle to compare');
	console.log(`ok ${n} cycles`);
}

function dap(micdb, program, cores, file) {
	const { spawn } = require('child_process');
	const p = spawn(micdb, ['--dap'], { stdio: ['pipe', 'pipe', 'inherit'] });
	let seq = 1, buf = Buffer.alloc(0), step = 0;
	const send = (command, args) => {
		const body = JSON.stringify({ seq: seq++, type: 'request', command,
		    arguments: args });
		p.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
		    body);
	};
	const evaluate = (expression) => send('evaluate', { expression,
	    context: 'repl' });
	const timer = setTimeout(() => fail('dap: no answer in 60 s'), 60000);
	// the conversation, one state after another
	const on = (m) => {
		if (m.type === 'event' && m.event === 'initialized')
			send('configurationDone', {});
		else if (m.type === 'event' && m.event === 'stopped' && step === 0) {
			step = 1;
			evaluate(`trace start ${file}`);
		} else if (m.type === 'response' && m.command === 'evaluate' &&
		    step === 1) {
			if (!m.success)
				fail('dap: ' + m.message);
			step = 2;
			evaluate('continue');
		} else if (m.type === 'event' && step === 2 &&
		    (m.event === 'terminated' || m.event === 'exited' ||
		    m.event === 'stopped')) {
			step = 3;
			evaluate('trace stop');
		} else if (m.type === 'response' && m.command === 'evaluate' &&
		    step === 3) {
			step = 4;
			console.log(m.success ? m.body.result : m.message);
			send('disconnect', {});
		} else if (m.type === 'response' && m.command === 'disconnect') {
			clearTimeout(timer);
			p.stdin.end();
		} else if (m.type === 'response' && !m.success &&
		    m.command !== 'evaluate')
			fail(`dap: ${m.command}: ${m.message}`);
	};
	p.stdout.on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		for (;;) {
			const h = buf.indexOf('\r\n\r\n');
			if (h < 0)
				return;
			const n = Number(/Content-Length: (\d+)/i.exec(
			    buf.slice(0, h).toString())[1]);
			if (buf.length < h + 4 + n)
				return;
			const m = JSON.parse(buf.slice(h + 4, h + 4 + n).toString());
			buf = buf.slice(h + 4 + n);
			on(m);
		}
	});
	send('initialize', { adapterID: 'micdb', linesStartAt1: true });
	send('launch', { program, engine: 'ref', cores: Number(cores),
	    stopOnEntry: true });
}

const [what, file, arg, ...rest] = process.argv.slice(2);
if (what === 'perfetto')
	perfetto(file);
else if (what === 'counters')
	counters(file, Number(arg));
else if (what === 'vcd')
	vcd(file, arg);
else if (what === 'datapath')
	datapath(file, arg, rest[0], rest[1]);
else if (what === 'dap')
	dap(file, arg, rest[0], rest[1]);
else
	fail('usage: check.js perfetto|counters|vcd|datapath|dap ...');
