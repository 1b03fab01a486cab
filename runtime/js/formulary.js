// formulary.js: Formulary's field types in a browser or Node, exactly as the Swift engine judges
// them (verdicts, messages, formatting, editing, forms), from what `formulary export` prints.
// One ES module, no dependencies, no build step; patterns arrive compiled to automata; vectors
// from the Swift engine prove the agreement (runtime/conformance). See docs/javascript.md.

/** Why a catalog, reference, type or form could not be used. */
export class FormularyError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "FormularyError";
    /** A stable identifier of the kind of problem. */
    this.code = code;
  }
}
const fail = (message, code) => { throw new FormularyError(message, code); };
const has = Object.hasOwn;
const isError = v => v.severity === "error";

// MARK: Unicode
// The general categories the engine asks about (letters, marks, punctuation, space
// separators) and the title cases that are not upper cases, written by the Swift engine's
// generator (FormularyConformance --tables): the same in every browser, whatever Unicode its
// RegExp knows. A table is numbers in base 32 (the last digit from 0-v, the others from A-.):
// the gap from the previous range's end, then the range's length less one.
// BEGIN UNICODE TABLES
const CATEGORY_TABLES = [
  "C2p7pBg0b0506m2u2O95bf48020E242133207022202j2Ci2Ea9F52B5307B8C8q53BeBaB412D220g181b230h02tuCoc0pB0a1506l50a040oo8a6n26hB9BrBl40j089gf57313l26204340h0e122f1b095513l26212121B0320k2h8222l26212440j0g1o0c7313l26212440v122g0i025422341202141424bn0Bl7222m2f40r22131v057222m292440v221g1i8222B830h06292p56h4n282036BrBf21d6Br120242n202921a03420m3B10C072B3s4DkBal0h5534041825cd0iB520603Ba2Kc233620233B8233B0233620233e2Bo233C2B6fhCl354Tb3g2p6Ca778heifhfc22gBjB4050C4Co843B1206C5buBit34cBb5pBnmaBkCj0CuBei7Bnte1bBbrB3Ba2bB33a6Ba32Ba32521406FvC1Il353B535372020202u3Bk2620422643355c6226Dl0e0hcD6050392044702020232a336450Bl1CTsH47341dB520603Bn80hma626262626262626Ch0Om1Bb4615Cl722Cp236Ba2CtivBhfQ1GNvC1VUcC4Bd3Ic4fb1lBehu3C5Bi83D63Chlg22232muBjfBhBv54021crbmqs8Bet0h429b42B8o227lm404Bh2041343020p23a82d53535a6262Ba2d7DiuK+3dm5BgII5Ld3D9B76d460292c242021212DbB2LajBv3BlB9bDl42E6B5p7pcCo45353532B4b2p2i212e3dB3DqM6s4BgBgvej277B5bt3B357BhEtjB35B35B79Bjda2e26212a2e26214BjdJmalb7p52B928C65302Bb21403mbmauC2i21blbp7pB7Bn71C10g3222sBbs4sB472rsBlblbiehDfC8BoBieBieB3B7ramHrB971h5Bpsb09lBbhBfksmdBkBq130eBcB1orB3u0309B240dBff3m020B4h2ok1C0620232e298BeB77313l26212440j0d4v920302B520q020BdBkj3l2vBfl120FpBeBa3B5Bfl0BsBae0C8qB66FqBbDlBvB073037212ng020Cv73B6h020t0bB780m0cBdk0jC8G8B0B082B4i0BitDh6212B5m0q5212vf0oBbI5ig02c2B1Dt0Cg*pH7G3CSdD0gBBfi5qD*q6S6GVqtBX3Ro8uiCeitjBfh3B0k6iNhBcGkBvB1o3oBdCa60C3cC1120f1dHGlBavD2DiIPu326212J2g0u230f39MbCI5Da6c4889F)7Ck2C6213031332b20262C02337262r232420462Kj3o2o2u2o2u2o2u2o2u2o27BZlu75I6BtEjBcb6h0K2tjBbP5rH5t30Ggu22212634a1H1623212e2G4BsC380BFl32q2120302923202070502020222120302020202021203326232320292g62242gEK5BJWvB1EIt3FUd3HJggTdCN3QtBP3E(a6IJ9",
  "Y1DfIk6I8Bc20212120C9aBhkh0D66353123B40vqCsaBr8a0p3282224Bc2Bs8Bbn2B0Bn22h26b1u2Bp0263132a0b1r032Bp024513240v140c2Bp0272222l1n522Bp026313282b1v0Bs44223a0B94Bo026222381c1u2Bp026222381c1g0d3Bo1262223a0b1u2C70552027j1Bu036d7D3038c6Ca1s0202051Bij216a2B3a0D5jo352223643eb20b3W02+j3t2u1v1C1va0Be220Dm1B30Dnb5bGs4Bq92s30BhBd3bl4BggB78d2vcBpdBhjEp22k507032G7BvWhB0C.v2Ee0D1vRb5Da1+Ol329B11Ch1Ih04050o450Ck1Bjhrhe0B77qcBd3BgdB50C4dd091Be2Bj022316120Ba461Hd721TZh0X2fhf-e0H30Em4BU722163B9250F61Ru3C24Ju1Ce5C7aBi3Dr2BmeBa031b3Bea80Bu2B5dh1Bd0d2Bhd9321Ctb7030Eubm3Bo1263132a0b13644C482030232420f1Cjho0CijHc638s1CjgDbcD6eI1eHm521332021Ee63640t9B962390aaBffG77G8727Cjl2dDr540212620C342124Ks3a120Bh644o0FH607eLG9hCO14Bs6BAp02Bm83Ci0c1TFc1ET2Bd3mQv4459736v3El2B+sBm5Bh90f0n42eBKh62g362124D50F16Lo0Bu3Pt3Hv1Hk0308160Or6De6YF+mHf",
  "B222523b141r220s020B406040b14040Vv090Oj5Ba1Bk0203030Bd1l121e022Cb3D70BcdHa2BneB00I61b0Ed0Dp0Dq0M70d0Lg0Cr0b1F9e20B63C80Cb451Dg5Fc0T58Eo0Te0Bd1Cf2C81Eu222B6aJq1Gp1E1625F11b6t2Dt3Bs4Bv1C17c0Ztn9j2c2bv1f1Tq3u1BBudCg1B09MklC03B11Xs321Dh0EgBe2v3bN42593bh0d0D30Cr0+A31Ie2D40b0Dk5Lt3Cn1B9220Bi1Bg0D2ch1Dt3Dv1h1Hq0UKj1Gh9nB22d205021Em22523b141r220s02026Mr2Ut0Bh0Mv0X80G80B00Ih8B70Dh6C36Cq3Oi0Jv0B30E54Bd3Fu6De123Dv3Bh1Cg350e022Cp5Dc0Jb121Dj4b120D90HrmDa2tcCd0E32Ht0I92Es0Ct7Ck224Cu9Go0D04Bb1U61CbcFg0BDh4C)t1OTs1E60C2490R92J83K80TFt0HP84C)k0(v1",
  "B10E00FP00CM0aB50Bg0D+10",
];
const TITLECASE = "DF:Ss,1C4:ǅ,1C5,1C6:ǅ,1C7:ǈ,1C8,1C9:ǈ,1CA:ǋ,1CB,1CC:ǋ,1F1:ǲ,1F2,1F3:ǲ,587:Եւ,10D0-10FA,10FD-10FF,1F80:ᾈ,1F81:ᾉ,1F82:ᾊ,1F83:ᾋ,1F84:ᾌ,1F85:ᾍ,1F86:ᾎ,1F87:ᾏ,1F88-1F8F,1F90:ᾘ,1F91:ᾙ,1F92:ᾚ,1F93:ᾛ,1F94:ᾜ,1F95:ᾝ,1F96:ᾞ,1F97:ᾟ,1F98-1F9F,1FA0:ᾨ,1FA1:ᾩ,1FA2:ᾪ,1FA3:ᾫ,1FA4:ᾬ,1FA5:ᾭ,1FA6:ᾮ,1FA7:ᾯ,1FA8-1FAF,1FB2:Ὰͅ,1FB3:ᾼ,1FB4:Άͅ,1FB7:ᾼ͂,1FBC,1FC2:Ὴͅ,1FC3:ῌ,1FC4:Ήͅ,1FC7:ῌ͂,1FCC,1FF2:Ὼͅ,1FF3:ῼ,1FF4:Ώͅ,1FF7:ῼ͂,1FFC,FB00:Ff,FB01:Fi,FB02:Fl,FB03:Ffi,FB04:Ffl,FB05:St,FB06:St,FB13:Մն,FB14:Մե,FB15:Մի,FB16:Վն,FB17:Մխ";
// END UNICODE TABLES

const LETTER = 1, MARK = 2, PUNCTUATION = 4, SPACE_SEPARATOR = 8;
const starts = [], ends = [], flags = [], small = new Uint8Array(0x800), titles = new Map();
{
  const ranges = [];
  CATEGORY_TABLES.forEach((table, t) => {
    const n = [];
    for (let k = 0, v = 0; k < table.length; k++) {
      const c = "ABCDEFGHIJKLMNOPQRSTUVWXYZ()*+-.".indexOf(table[k]);
      v = v * 32 + (c >= 0 ? c : parseInt(table[k], 32));
      if (c < 0) { n.push(v); v = 0; }
    }
    for (let k = 0, end = -1; k + 1 < n.length; k += 2) ranges.push([end += n[k], end += n[k + 1], 1 << t]);
  });
  ranges.sort((a, b) => a[0] - b[0]);
  for (const [start, end, flag] of ranges) {
    starts.push(start); ends.push(end); flags.push(flag);
    for (let c = start; c <= end && c < 0x800; c++) small[c] |= flag;
  }
  for (const entry of TITLECASE.split(",")) {
    const [key, to] = entry.split(":"), [a, b = a] = key.split("-").map(h => parseInt(h, 16));
    for (let c = a; c <= b; c++) titles.set(c, to ?? String.fromCodePoint(c));
  }
}
/** The category flags of a code point. */
function categoryOf(c) {
  if (c < 0x800) return small[c];
  let low = 0, high = starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (starts[mid] > c) high = mid - 1; else if (ends[mid] < c) low = mid + 1; else return flags[mid];
  }
  return 0;
}
const isLetter = c => c < 0x80 ? ((c | 0x20) - 0x61) >>> 0 < 26 : (categoryOf(c) & LETTER) !== 0;
const isDigit = c => (c - 0x30) >>> 0 < 10;
/** Unicode's White_Space property. */
const isWhiteSpace = c => c < 0x80 ? c === 0x20 || (c >= 9 && c <= 13) : c < 0x1680 ? c === 0x85 || c === 0xA0
  : c === 0x1680 || (c >= 0x2000 && c <= 0x200A) || c === 0x2028 || c === 0x2029 || c === 0x202F || c === 0x205F || c === 0x3000;
const allWhiteSpace = cps => cps.every(isWhiteSpace);

/** The code point at UTF-16 offset `i` (a lone surrogate as itself). */
function cpAt(s, i) {
  const c = s.charCodeAt(i);
  if (c >= 0xD800 && c < 0xDC00 && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xDC00 && d < 0xE000) return ((c - 0xD800) << 10) + d - 0xDC00 + 0x10000;
  }
  return c;
}
function codePoints(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) { const c = cpAt(s, i); out.push(c); if (c > 0xFFFF) i++; }
  return out;
}
const charOf = c => c < 0x10000 ? String.fromCharCode(c) : String.fromCharCode(0xD7C0 + (c >> 10), 0xDC00 + (c & 0x3FF));
/** The string of `cps[from..<to]`. */
function stringOf(cps, from = 0, to = cps.length) { let s = ""; for (let k = from; k < to; k++) s += charOf(cps[k]); return s; }
function isASCII(s) { for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false; return true; }
let encoder;
const utf8 = s => (encoder ??= new TextEncoder()).encode(s), utf8Length = s => isASCII(s) ? s.length : utf8(s).length;

/** A string as Swift holds it: lone surrogates replaced by U+FFFD. */
function wellFormed(s) {
  if (typeof s !== "string") s = String(s ?? "");
  return s.isWellFormed() ? s : s.toWellFormed();
}
/** Lower-casing scalar by scalar, as Swift does (Σ is σ even at a word's end). */
const lowercase = s => s.indexOf("Σ") < 0 ? s.toLowerCase() : s.split("Σ").map(p => p.toLowerCase()).join("σ");
const titlecase = c => titles.get(c) ?? charOf(c).toUpperCase();

let segmenter;
/** True when every UTF-16 unit is a grapheme of its own: all below U+0300, no CR. */
function isSimple(s) { for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c >= 0x300 || c === 13) return false; } return true; }
/** The extended grapheme clusters of a string. */
function graphemes(s) {
  if (isSimple(s)) return s.split("");
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(s), part => part.segment);
}
const graphemeCount = s => isSimple(s) ? s.length : graphemes(s).length;
/** The UTF-16 offset of each grapheme's start, then `s.length`. */
function graphemeBounds(s) {
  const bounds = [0];
  for (const g of graphemes(s)) bounds.push(bounds.at(-1) + g.length);
  return bounds;
}
/** Code point order (UTF-8 byte order), as Swift compares canonical text. */
function compareCodePoints(a, b) {
  const x = codePoints(a), y = codePoints(b), n = Math.min(x.length, y.length);
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;
  return Math.sign(x.length - y.length);
}
/** Swift's order of strings: canonical equivalence (NFC), then code points. */
const swiftOrder = (a, b) => compareCodePoints(a.normalize("NFC"), b.normalize("NFC"));
/** The characters a mask's slots take (ASCII digits, letters): what a `when` and `mask-one-of` read. */
function slotsOf(value) {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x80 || !(isDigit(c) || isLetter(c))) { let slots = ""; for (const ch of value) if (isDigit(ch.codePointAt(0)) || isLetter(ch.codePointAt(0))) slots += ch; return slots; }
  }
  return value;   // every character is an ASCII letter or digit
}
/** The words of `s` between white space (characters whose first scalar is white space). */
const words = s => graphemes(s).reduce((w, g) => (isWhiteSpace(g.codePointAt(0)) ? w.push("") : w[w.length - 1] += g, w), [""]).filter(Boolean);
/** Empty or only white space (no White_Space scalar lies outside the BMP). */
function isBlank(s) { for (let i = 0; i < s.length; i++) if (!isWhiteSpace(s.charCodeAt(i))) return false; return true; }

// MARK: Automata

/** A pattern compiled by the Swift engine (docs/export.md): states with sorted ranges of scalars. */
class Automaton {
  constructor(json, where) {
    const bad = why => fail(`the automaton of ${where} is broken: ${why}`, "broken-automaton");
    const { kind, start, accepting, transitions, universal = [] } = json ?? {}, n = transitions?.length, dfa = kind === "dfa";
    if (!dfa && kind !== "nfa") bad(`its kind is ${JSON.stringify(kind)}, not "dfa" or "nfa"`);
    if (![start, accepting, universal, transitions].every(Array.isArray) || (dfa && start.length > 1)) bad("start (one, for a dfa), accepting, universal and transitions must be lists");
    const state = s => Number.isInteger(s) && s >= 0 && s < n ? s : bad(`${JSON.stringify(s)} is not a state`);
    Object.assign(this, { dfa, states: n, start: start.map(state), accepting: new Uint8Array(n), universal: new Uint8Array(n) });
    for (const s of accepting) this.accepting[state(s)] = 1;
    for (const s of universal) this.universal[state(s)] = 1;
    this.ranges = transitions.map((list, s) => {
      // Each [first, last, target], first <= last, sorted by first (a dfa's disjoint too).
      if (!list?.every?.(Array.isArray)) bad(`state ${s} has no list of transitions`);
      const flat = new Int32Array(list.length * 3);
      let previous = -1;
      list.forEach(([lo, hi, target], k) => {
        if (!(Number.isInteger(lo) && Number.isInteger(hi) && lo >= 0 && hi <= 0x10FFFF && lo <= hi && (dfa ? lo > previous : lo >= previous))) bad(`transition ${k} of state ${s} is not in order`);
        previous = dfa ? hi : lo;
        flat.set([lo, hi, state(target)], k * 3);
      });
      return flat;
    });
    if (dfa && n <= 4096) {   // a dfa's ASCII moves as one table
      this.ascii = new Int32Array(n * 128).fill(-1);
      this.ranges.forEach((f, s) => { for (let k = 0; k < f.length; k += 3) for (let c = f[k]; c <= f[k + 1] && c < 128; c++) this.ascii[s * 128 + c] = f[k + 2]; });
    }
  }
  /** The dfa state after `c` from `s`, or -1. */
  step(s, c) {
    const f = this.ranges[s];
    for (let low = 0, high = f.length / 3 - 1; low <= high;) {
      const mid = (low + high) >> 1;
      if (f[mid * 3] > c) high = mid - 1; else if (f[mid * 3 + 1] < c) low = mid + 1; else return f[mid * 3 + 2];
    }
    return -1;
  }
  /** Over `s`: 2 matches, 1 a continuation could, 0 none can; +4 (a dfa) when every one does. */
  run(s) {
    if (this.dfa) {
      if (!this.start.length) return 0;
      const ascii = this.ascii, universal = this.universal;
      let state = this.start[0];
      for (let i = 0; i < s.length && !universal[state]; i++) {   // from a universal state every rest matches
        const c = s.charCodeAt(i);
        if (c < 128 && ascii) state = ascii[state * 128 + c];
        else { const cp = c < 128 ? c : cpAt(s, i); if (cp > 0xFFFF) i++; state = this.step(state, cp); }
        if (state < 0) return 0;
      }
      return (this.accepting[state] ? 2 : 1) + universal[state] * 4;
    }
    let current = this.start.slice();
    const seen = new Int32Array(this.states).fill(-1);
    for (let i = 0, round = 0; i < s.length && current.length; i++, round++) {
      const c = cpAt(s, i), next = [];
      if (c > 0xFFFF) i++;
      for (const state of current) {
        const f = this.ranges[state];
        for (let k = 0; k < f.length && f[k] <= c; k += 3) {
          if (f[k + 1] >= c && seen[f[k + 2]] !== round) { seen[f[k + 2]] = round; next.push(f[k + 2]); }
        }
      }
      current = next;
    }
    return current.length ? current.some(s => this.accepting[s]) ? 2 : 1 : 0;
  }
}

// MARK: Exact decimals
// Numbers stay digit strings: never a double (0.1 + 0.2), linear in their length.

/** `-?[0-9]+(\.[0-9]+)?` as {negative, integer, fraction} without outer zeros, or null. */
function decimalParts(s) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(s);
  return m && parts(m[1] === "-", m[2], m[3] ?? "");
}
function parts(negative, integer, fraction) {
  let a = 0, e = fraction.length;
  while (a < integer.length && integer.charCodeAt(a) === 0x30) a++;
  while (e > 0 && fraction.charCodeAt(e - 1) === 0x30) e--;
  return { negative, integer: integer.slice(a), fraction: fraction.slice(0, e) };
}
const isZero = p => !p.integer && !p.fraction;
/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
function compareDecimals(a, b) {
  const sa = isZero(a) ? 0 : a.negative ? -1 : 1, sb = isZero(b) ? 0 : b.negative ? -1 : 1;
  if (sa !== sb || !sa) return Math.sign(sa - sb);
  let m = Math.sign(a.integer.length - b.integer.length);
  if (!m && a.integer !== b.integer) m = a.integer < b.integer ? -1 : 1;
  if (!m) {
    const n = Math.min(a.fraction.length, b.fraction.length), x = a.fraction.slice(0, n), y = b.fraction.slice(0, n);
    m = x !== y ? (x < y ? -1 : 1) : Math.sign(a.fraction.length - b.fraction.length);
  }
  return sa * m;
}
/** `digits` plus one unit in the last place (the last `fractionDigits` are the fraction), by BigInt. */
function incremented(digits, fractionDigits) {
  const d = (BigInt(digits || "0") + 1n).toString().padStart(digits.length, "0"), split = d.length - fractionDigits;
  return parts(false, d.slice(0, split), d.slice(split));
}
const decimalConstant = text => { const p = decimalParts(text); return p && { text, parts: p }; };
/** A value of a `decimal-separator ","` type as the point-reading checks see it: a point is no number there. */
const dotted = (b, comma) => !comma ? b : b.includes(".") ? "x" : b.replaceAll(",", ".");

/** A compiled `range`: bounds {text, parts} or null. */
class DecimalRange {
  constructor(lower, lowerExclusive, upper, upperInclusive) { Object.assign(this, { lower, lowerExclusive, upper, upperInclusive }); }
  contains(v) {
    const l = this.lower && compareDecimals(v, this.lower.parts), u = this.upper && compareDecimals(v, this.upper.parts);
    return !(this.lower && (l < 0 || (l === 0 && this.lowerExclusive))) && !(this.upper && (u > 0 || (u === 0 && !this.upperInclusive)));
  }
  /** Live: false only when no completion of the typed prefix is a number in range. */
  liveAllows(b) {
    const [, sign, integer, fraction = null] = /^(-?)([0-9]*)(?:\.([0-9]*))?$/.exec(b) ?? [];
    if (!b) return true;
    if (integer === undefined || (fraction !== null && !integer)) return false;
    // A leading `-` mirrors the prefix and the range.
    const range = sign
      ? { lower: this.upper && [this.upper, true], lowerExclusive: !this.upperInclusive, upper: this.lower && [this.lower, true], upperInclusive: !this.lowerExclusive }
      : { lower: this.lower && [this.lower, false], lowerExclusive: this.lowerExclusive, upper: this.upper && [this.upper, false], upperInclusive: this.upperInclusive };
    if (fraction === null) return meetsIntegerPrefix(range, integer || "0");
    return meets(range, parts(false, integer, fraction), incremented(integer + fraction, fraction.length));
  }
}
function compareBound(x, [bound, negated]) {
  const c = bound.parts;
  return compareDecimals(x, negated ? { negative: !c.negative, integer: c.integer, fraction: c.fraction } : c);
}
/** [low, high) meets the range (high null: unbounded). */
function meets(range, low, high) {
  const c = range.upper && compareBound(low, range.upper);
  if (range.upper && (c > 0 || (c === 0 && !range.upperInclusive))) return false;
  return !(range.lower && high && compareBound(high, range.lower) <= 0);
}
/** Some k >= 0 makes [v·10^k, (v+1)·10^k) meet the range. */
function meetsIntegerPrefix(range, v) {
  const digits = parts(false, v, "").integer;
  if (!digits) return meets(range, parts(false, "", ""), null);
  const next = incremented(digits, 0).integer;
  let k = 0;
  if (range.lower && compareBound(parts(false, next, ""), range.lower) <= 0) {
    k = Math.max(0, range.lower[0].parts.integer.length - next.length);
    if (compareBound(parts(false, next + "0".repeat(k), ""), range.lower) <= 0) k++;
  }
  return meets(range, parts(false, digits + "0".repeat(k), ""), parts(false, next + "0".repeat(k), ""));
}

// MARK: Civil dates (proleptic Gregorian: no Date, no time zone)

const div = (a, b) => Math.trunc(a / b);
const isLeap = y => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (m, y) => m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
function dayNumber(year, month, day) {
  const y = month <= 2 ? year - 1 : year, era = div(y >= 0 ? y : y - 399, 400), yoe = y - era * 400;
  const doy = div(153 * ((month + 9) % 12) + 2, 5) + day - 1;
  return era * 146097 + yoe * 365 + div(yoe, 4) - div(yoe, 100) + doy - 719468;
}
function dateOfDay(n) {
  const z = n + 719468, era = div(z >= 0 ? z : z - 146096, 146097), doe = z - era * 146097;
  const yoe = div(doe - div(doe, 1460) + div(doe, 36524) - div(doe, 146096), 365);
  const doy = doe - (365 * yoe + div(yoe, 4) - div(yoe, 100)), mp = div(5 * doy + 2, 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - div(153 * mp + 2, 5) + 1 };
}
/** `d` moved by an offset; years and months clamp the day to the target month's length. */
function offsetDate(d, amount, unit) {
  if (unit === "d") return dateOfDay(dayNumber(d.year, d.month, d.day) + amount);
  const total = unit === "y" ? (d.year + amount) * 12 + d.month - 1 : d.year * 12 + d.month - 1 + amount;
  const year = total >= 0 ? div(total, 12) : div(total - 11, 12), month = total - year * 12 + 1;
  return { year, month, day: Math.min(d.day, daysIn(month, year)) };
}
const pad = (n, width) => "0".repeat(Math.max(0, width - String(n).length)) + n;
const dateText = d => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;
/** `YYYY-MM-DD` naming a real day, or null. */
function parseISODate(text) {
  const [, year, month, day] = (/^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text) || []).map(Number);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year) ? { year, month, day } : null;
}
/** `YYYY-MM-DD`, `today`, `today+12y`, `today-30d`, `today+6m`: {date} or {offset, unit}, or null. */
function parseDateBound(text) {
  const date = parseISODate(text);
  if (date) return { date };
  if (typeof text !== "string" || !text.startsWith("today")) return null;
  if (text === "today") return { offset: 0, unit: "d" };
  const sign = text[5], unit = text.at(-1), n = swiftInt(text.slice(6, -1));
  return (sign === "+" || sign === "-") && "ymd".includes(unit) && n !== null && text.length > 7 ? { offset: sign === "-" ? -n : n, unit } : null;
}
/** Swift's `Int(text)`: an optional sign and ASCII digits within 64 bits; else null. */
function swiftInt(text) {
  if (typeof text !== "string" || !/^[+-]?[0-9]+$/.test(text)) return null;
  const v = BigInt(text);
  return v > 9223372036854775807n || v < -9223372036854775808n ? null : Number(v);
}

/** A `date "FORMAT"`: per UTF-8 byte, a digit of field 0 (year), 1 (month), 2 (day), or 256 + a byte. */
function parseDateFormat(format) {
  const items = [], seen = new Set();
  let twoDigitYear = false;
  for (const [c, token] of String(format).matchAll(/(yyyy|yy|MM|dd)|[^]/gu)) {
    if (!token) { for (const byte of utf8(c)) items.push(256 + byte); continue; }
    const key = token[0] === "y" ? "year" : token;
    if (seen.has(key)) return null;
    seen.add(key);
    twoDigitYear ||= token === "yy";
    items.push(...Array(token.length).fill(token[0] === "y" ? 0 : token === "MM" ? 1 : 2));
  }
  return seen.has("year") && (seen.has("MM") || !seen.has("dd")) ? { items, twoDigitYear, hasMonth: seen.has("MM"), hasDay: seen.has("dd") } : null;
}
const windowYear = (yy, todayYear) => todayYear - 50 + ((((yy - todayYear + 50) % 100) + 100) % 100);

/** A compiled `date`: the format and the range's first and last day numbers (null: open). */
class DateCheck {
  constructor(format, first, last, todayYear) {
    Object.assign(this, { format, first, last, todayYear, firstDate: first === null ? null : dateOfDay(first), lastDate: last === null ? null : dateOfDay(last) });
  }
  overlaps([start, end]) { return !(this.first !== null && end < this.first) && !(this.last !== null && start > this.last); }
  /** The day numbers a value spans (no month or day: the year or month), or null: no real date. */
  span(year, month, day) {
    if (month === null) return [dayNumber(year, 1, 1), dayNumber(year, 12, 31)];
    if (month < 1 || month > 12) return null;
    if (day === null) return [dayNumber(year, month, 1), dayNumber(year, month, daysIn(month, year))];
    return day >= 1 && day <= daysIn(month, year) ? [dayNumber(year, month, day), dayNumber(year, month, day)] : null;
  }
  /** Each field's digits, or null when the value does not fit the format (live: so far). */
  digits(b, live) {
    const items = this.format.items, ascii = isASCII(b), bytes = ascii ? b : utf8(b);
    if (live ? bytes.length > items.length : bytes.length !== items.length) return null;
    const typed = [[], [], []];
    for (let i = 0; i < bytes.length; i++) {
      const c = ascii ? b.charCodeAt(i) : bytes[i], item = items[i];
      if (item >= 256 ? c !== item - 256 : !isDigit(c)) return null;
      if (item < 256) typed[item].push(c - 0x30);
    }
    return typed;
  }
  fields(b) {
    const typed = this.digits(b, false);
    if (!typed) return null;
    const [year, month, day] = typed.map(ds => ds.reduce((n, d) => n * 10 + d, 0));
    return { year: this.format.twoDigitYear ? windowYear(year, this.todayYear) : year, month, day };
  }
  /** The days a complete value spans, or null. */
  spanOf(b) { const f = this.fields(b); return f && this.span(f.year, this.format.hasMonth ? f.month : null, this.format.hasDay ? f.day : null); }
  passesFinal(b) { const span = this.spanOf(b); return span !== null && this.overlaps(span); }
  passesLive(b) {
    const typed = this.digits(b, true);
    if (!typed) return false;
    const candidates = (digits, from, to) => {   // two-digit values from..to starting with the digits typed
      const out = [], low = digits.length ? digits[0] * 10 + (digits[1] ?? 0) : 0, high = digits.length ? low + (digits.length > 1 ? 0 : 9) : 99;
      for (let v = Math.max(from, low); v <= Math.min(to, high); v++) out.push(v);
      return out;
    };
    const months = this.format.hasMonth ? candidates(typed[1], 1, 12) : [null];
    const days = this.format.hasDay ? candidates(typed[2], 1, 31) : [null];
    const exists = year => months.some(m => days.some(d => { const span = this.span(year, m, d); return span !== null && this.overlaps(span); }));
    if (!months.length || !days.length) return false;
    if (this.format.twoDigitYear) return candidates(typed[0], 0, 99).some(v => exists(windowYear(v, this.todayYear)));
    const scale = 10 ** (4 - typed[0].length), prefix = typed[0].reduce((n, d) => n * 10 + d, 0) * scale;
    // Years inside differ only in leapness: the ends and nine more will do.
    const low = Math.max(prefix, this.firstDate ? this.firstDate.year : prefix);
    const high = Math.min(prefix + scale - 1, this.lastDate ? this.lastDate.year : prefix + scale - 1);
    for (let year = low; year < high && year <= low + 9; year++) if (exists(year)) return true;
    return low <= high && exists(high);
  }
  /** The first day a complete value denotes, ignoring the range; null when none. */
  firstDay(b) { const span = this.spanOf(b); return span && span[0]; }
}

// MARK: Checksums (over the ASCII digits; other characters are skipped)

const VERHOEFF_D = "0123456789123406789523401789563401289567401239567859876043216598710432765982104387659321049876543210";
const VERHOEFF_P = "01234567891576283094580379614289160435279453126870428657390127938064157046913258";
/** Calls `f(digit, k)` for `b`'s ASCII digits from the right (k = 0, 1…); returns their number. */
function digitsFromRight(b, f) {
  let k = 0;
  for (let i = b.length - 1; i >= 0; i--) { const c = b.charCodeAt(i); if (isDigit(c)) f(c - 0x30, k++); }
  return k;
}
function isbn10Sum(b) {
  let sum = 0, count = 0, prefix = 0, sawX = false;
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i), value = isDigit(c) ? c - 0x30 : c === 0x58 ? 10 : -1;
    if (value < 0) continue;
    if (sawX) return null;
    sawX = value === 10;
    if (++count <= 3) prefix = prefix * 10 + value;
    sum += Math.max(0, 11 - count) * value;
  }
  return { sum, count, prefix };
}
const checksums = {
  luhn(b) { let sum = 0; return digitsFromRight(b, (d, k) => { sum += k & 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d; }) > 0 && sum % 10 === 0; },
  gtin(b) { let sum = 0; return digitsFromRight(b, (d, k) => { sum += k & 1 ? 3 * d : d; }) >= 2 && sum % 10 === 0; },
  verhoeff(b) {
    let c = 0;
    return digitsFromRight(b, (d, k) => { c = VERHOEFF_D.charCodeAt(c * 10 + VERHOEFF_P.charCodeAt((k & 7) * 10 + d) - 0x30) - 0x30; }) >= 2 && c === 0;
  },
  mod97(b) {
    const values = [];
    for (let i = 0; i < b.length; i++) {
      const c = b.charCodeAt(i);
      if (isDigit(c)) values.push(c - 0x30);
      else if (((c | 0x20) - 0x61) >>> 0 < 26) values.push((c | 0x20) - 0x61 + 10);
      else if (!isWhiteSpace(c)) return false;
    }
    let r = 0;
    for (let k = 0; k < values.length; k++) { const v = values[(k + 4) % values.length]; r = (v < 10 ? r * 10 + v : r * 100 + v) % 97; }
    return values.length >= 5 && r === 1;
  },
  isbn10(b) { const s = isbn10Sum(b); return s !== null && s.count === 10 && s.sum % 11 === 0; },
  isbn(b) {
    const s = isbn10Sum(b);
    return s !== null && (s.count === 10 ? s.sum % 11 === 0 : s.count === 13 && (s.prefix === 978 || s.prefix === 979) && !b.includes("X") && checksums.gtin(b));
  },
};

// MARK: Masks

const DIGIT = 0, ALPHA = 1, ALNUM = 2, LITERAL = 3;

/** `{LOW-HIGH}` at `cps[k]`: a number group and its length, or null. */
function numberGroup(cps, k, item) {
  const [all, low, high] = /^\{([0-9]{2,9})-([0-9]{2,9})\}/.exec(String.fromCodePoint(...cps.slice(k, k + 21))) || [];
  return all && low.length === high.length && +low <= +high ? { group: { start: item, width: low.length, low: +low, high: +high }, length: all.length } : null;
}

/** A mask: slots `0` (digit), `A` (letter), `*` (either), number groups (`{01-12}`), literals (`\x` too). */
class Mask {
  /** The mask of `pattern`, or null when it ends in a lone backslash. */
  static parse(pattern) {
    const cps = codePoints(pattern), kinds = [], literals = [], numbers = [];
    let escaped = false;
    for (let k = 0; k < cps.length; k++) {
      const c = cps[k], found = !escaped && c === 0x7B && numberGroup(cps, k, kinds.length);
      const kind = escaped ? LITERAL : c === 0x30 ? DIGIT : c === 0x41 ? ALPHA : c === 0x2A ? ALNUM : LITERAL;
      if (!escaped && c === 0x5C) { escaped = true; continue; }
      escaped = false;
      if (found) {
        numbers.push(found.group);
        for (let w = 0; w < found.group.width; w++) { kinds.push(DIGIT); literals.push(0); }
        k += found.length - 1;
      } else { kinds.push(kind); literals.push(kind === LITERAL ? c : 0); }
    }
    return escaped ? null : new Mask(kinds, literals, numbers);
  }
  constructor(kinds, literals, numbers) {
    Object.assign(this, { kinds, literals, numbers, literalText: literals.map(charOf) });
    this.trailingLiteralsStart = kinds.findLastIndex(k => k !== LITERAL) + 1;
    this.slotCount = kinds.filter(k => k !== LITERAL).length;
    /** The mask as a person reads it: escapes removed, number groups as digit slots. */
    this.display = kinds.map((k, i) => "0A*"[k] ?? this.literalText[i]).join("");
  }
  fits(kind, c) { return kind === DIGIT ? isDigit(c) : kind === ALPHA ? isLetter(c) : kind === ALNUM && (isDigit(c) || isLetter(c)); }
  /** The value laid into the mask: {text, fit: "filled" | "partial" | "broken"}. */
  format(src) {
    const kinds = this.kinds, n = kinds.length;
    let out = "", from = 0, i = 0, m = 0, broken = false;   // src[from..<i] is laid in, not yet added to out
    while (m < n && i < src.length) {
      const c = cpAt(src, i), width = c > 0xFFFF ? 2 : 1;
      if (kinds[m] === LITERAL) {
        if (c === this.literals[m]) i += width;
        else { out += src.slice(from, i) + this.literalText[m]; from = i; }
        m++;
      } else if (this.fits(kinds[m], c)) { i += width; m++; }
      else { broken = true; break; }
    }
    out += src.slice(from);
    if (!broken && i === src.length && i > 0 && m >= this.trailingLiteralsStart) while (m < n && kinds[m] === LITERAL) out += this.literalText[m++];
    return { text: out, fit: broken || i < src.length ? "broken" : m === n ? "filled" : "partial" };
  }
  /**
   * `format`'s walk over code points: the output, where each went, which the mask took as its literal,
   * and `misfit`: the slot kind of the first misfit; null: no slot left; undefined: it fits so far.
   */
  layout(value) {
    const kinds = this.kinds, n = kinds.length, output = [], ends = value.map(() => 0), taken = value.map(() => false);
    let i = 0, m = 0, broken = false;
    while (m < n && i < value.length) {
      if (kinds[m] === LITERAL) {
        output.push(this.literals[m]);
        if (value[i] === this.literals[m]) { taken[i] = true; ends[i++] = output.length; }
        m++;
      } else if (this.fits(kinds[m], value[i])) { output.push(value[i]); ends[i++] = output.length; m++; }
      else { broken = true; break; }
    }
    if (!broken && i === value.length && i > 0 && m >= this.trailingLiteralsStart) while (m < n && kinds[m] === LITERAL) output.push(this.literals[m++]);
    const filled = !broken && i === value.length && m === n, misfit = broken ? kinds[m] : i < value.length ? null : undefined;
    while (i < value.length) { output.push(value[i]); ends[i++] = output.length; }
    return { output, ends, takenAsLiteral: taken, filled, misfit };
  }
  /** `value` with the number group the code point at `typed` lands in padded, and the caret; or null. */
  padded(value, typed) {
    if (!this.numbers.length || typed >= value.length) return null;
    for (let i = 0, m = 0; m < this.kinds.length && i <= typed; m++) {
      if (this.kinds[m] === LITERAL) { if (value[i] === this.literals[m]) i++; continue; }
      const s = value[i];
      if (i === typed && i > 0 && value[i - 1] === s && this.kinds[m - 1] === LITERAL && this.literals[m - 1] === s
          && this.numbers.some(g => g.start + g.width === m - 1)) {
        return { value: value.slice(0, i).concat(value.slice(i + 1)), caret: i };   // the separator again, after padding gave it
      }
      const group = i === typed && this.numbers.find(g => g.start <= m && m < g.start + g.width);
      if (group) return this.pad(value, typed, group, m - group.start);
      if (!this.fits(this.kinds[m], s)) return null;
      i++;
    }
    return null;
  }
  pad(value, typed, group, slot) {
    const s = value[typed], zeros = n => Array(Math.max(0, n)).fill(0x30);
    if (slot === 0) {
      const digit = s - 0x30, unit = 10 ** (group.width - 1);
      const canStart = digit * unit <= group.high && (digit + 1) * unit - 1 >= group.low;
      if (!(digit >= 0 && digit < 10) || canStart || digit < group.low || digit > group.high) return null;
      const out = value.slice(0, typed).concat(zeros(group.width - 1), [s]);
      if (typed + 1 === value.length) for (let m = group.start + group.width; m < this.kinds.length && this.kinds[m] === LITERAL; m++) out.push(this.literals[m]);
      return { value: out.concat(value.slice(typed + 1)), caret: typed + 1 === value.length ? out.length : typed + group.width };
    }
    const after = group.start + group.width;
    if (this.kinds[after] !== LITERAL || this.literals[after] !== s) return null;
    let number = 0;
    for (let k = typed - slot; k < typed; k++) number = number * 10 + value[k] - 0x30;
    if (number < group.low || number > group.high) return null;
    return { value: value.slice(0, typed - slot).concat(zeros(group.width - slot), value.slice(typed - slot)), caret: typed + group.width - slot + 1 };
  }
}

// MARK: Messages

const SECURE = "•••";
/** A message template: `{value}` per value (`•••` when secure), parameters now, other `{…}` as written. */
function messageTemplate(template, substitutions, secure) {
  const segments = [];
  let text = "", rest = template;
  for (let open; (open = rest.indexOf("{")) >= 0;) {
    const close = rest.indexOf("}", open + 1);
    if (close < 0) break;
    const name = rest.slice(open + 1, close);
    text += rest.slice(0, open);
    if (name === "value") { if (text) segments.push(text); text = ""; segments.push(null); }
    else text += has(substitutions, name) ? substitutions[name] : "{" + name + "}";
    rest = rest.slice(close + 1);
  }
  if ((text += rest)) segments.push(text);
  return value => segments.map(s => s === null ? (secure ? SECURE : value) : s).join("");
}
/** `template` with `names` filled in, every other `{…}` (`{value}` too) as written. */
const fill = (template, names) => messageTemplate(template, names)("{value}");
const NOUNS = { graphemes: "characters", scalars: "Unicode scalars", utf16: "UTF-16 code units", bytes: "bytes" };
const CHECKSUM_MESSAGES = {
  luhn: "Fails the Luhn check digit test", mod97: "Fails the MOD 97-10 check", gtin: "Fails the GTIN check digit test",
  isbn10: "Is not a valid ISBN-10", isbn: "Is not a valid ISBN-10 or ISBN-13", verhoeff: "Fails the Verhoeff check digit test",
};
function lengthMessage(lower, upper, unit) {
  const noun = NOUNS[unit];
  return upper === null ? `Must be at least ${lower} ${noun} long` : lower === upper ? `Must be exactly ${lower} ${noun} long`
    : lower === 0 ? `Must be at most ${upper} ${noun} long` : `Must be ${lower} to ${upper} ${noun} long`;
}
function rangeMessage(r, spell) {
  const { lower: l, upper: u } = r, a = l && spell(l.text), b = u && spell(u.text);
  if (l && u && !r.lowerExclusive && r.upperInclusive) {
    return (isZero(l.parts) && isZero(u.parts)) || compareDecimals(l.parts, u.parts) === 0 ? `Must be ${a}` : `Must be a number from ${a} to ${b}`;
  }
  const words = [l && (r.lowerExclusive ? "above " : "at least ") + a, u && (r.upperInclusive ? "at most " : "below ") + b].filter(Boolean);
  return words.length ? "Must be a number " + words.join(" and ") : "Must be a number";
}

// MARK: Checks

/** `s`'s length in a unit, as the engine counts it. */
const lengthIn = (s, unit) => unit === "bytes" ? utf8Length(s) : unit === "utf16" ? s.length : unit === "scalars" ? codePoints(s).length : graphemeCount(s);
/** `-?[0-9]+`, or (prefix) any prefix of it. */
const isInteger = (b, prefix) => (prefix ? /^-?[0-9]*$/ : /^-?[0-9]+$/).test(b);
/** `-?[0-9]+(\.[0-9]{1,places})?`, or (prefix) any prefix of it. */
function isDecimal(b, places, prefix) {
  const [all, integer, fraction] = /^-?([0-9]*)(?:\.([0-9]*))?$/.exec(b) ?? [];
  if (fraction === undefined) return all !== undefined && (prefix || integer !== "");
  return integer !== "" && places !== 0 && !(places !== null && fraction.length > places) && (prefix || fraction !== "");
}
/** A compiled `charset`: every code point in one of the classes. */
class Charset {
  constructor(classes) {
    const named = { letters: LETTER, marks: MARK, spaces: SPACE_SEPARATOR, punctuation: PUNCTUATION, alphanumerics: LETTER | MARK, digits: 0 };
    this.named = 0;
    this.literals = new Set();
    for (const c of classes) {
      if (c.class === "literal") codePoints(c.characters).forEach(cp => this.literals.add(cp));
      else if (has(named, c.class)) this.named |= named[c.class];
      else fail(`unknown charset class ${JSON.stringify(c.class)}`, "bad-export");
    }
    const digits = classes.some(c => c.class === "digits" || c.class === "alphanumerics"), tab = classes.some(c => c.class === "spaces");
    this.ascii = Array.from({ length: 128 }, (_, v) => (digits && isDigit(v)) || (tab && v === 9) || this.literals.has(v) || (categoryOf(v) & this.named) !== 0);
  }
  accepts(b) {
    for (const ch of b) { const c = ch.codePointAt(0); if (c < 0x80 ? !this.ascii[c] : (categoryOf(c) & this.named) === 0 && !this.literals.has(c)) return false; }
    return true;
  }
}
/** One compiled check line. */
class Check {
  constructor(kind, rule, severity, finalOnly, message, payload) {
    Object.assign(this, { kind, rule, severity, finalOnly, message, payload, runsLive: !finalOnly && kind !== "checksum" });
  }
  /** Whether `b` (normalized and formatted) passes, in the final or the live stage. */
  evaluate(b, live) {
    const p = this.payload;
    switch (this.kind) {
      case "length": { const n = lengthIn(b, p.unit); return !(p.upper !== null && n > p.upper) && (live || n >= p.lower); }
      case "integer": return isInteger(b, live);
      case "decimal": return isDecimal(dotted(b, p.comma), p.places, live);
      case "range": { b = dotted(b, p.comma); if (live) return p.liveAllows(b); const v = decimalParts(b); return v !== null && p.contains(v); }
      case "pattern": {   // live: fails only once no continuation matches (not: once every one does, known for a dfa)
        const r = p.automaton.run(b), outcome = r & 3;
        return p.negate ? (live ? r < 4 : outcome !== 2) : live ? outcome > 0 : outcome === 2;
      }
      case "charset": return p.accepts(b);
      case "one-of": {
        const v = p.ignoreCase ? lowercase(b) : b;
        return p.options.some(o => live ? o.startsWith(v) : o === v);
      }
      case "date": return live ? p.passesLive(b) : p.passesFinal(b);
      default: return checksums[p](b);
    }
  }
}

// MARK: Compiling a type

/** Runs of Unicode's White_Space (as `isWhiteSpace`). */
const SPACES = /[\t-\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;
/** Applies one normalization step. */
function normalizeStep(step, s) {
  switch (step.step) {
    case "trim": {
      let a = 0, e = s.length;
      while (a < e && isWhiteSpace(s.charCodeAt(a))) a++;
      while (e > a && isWhiteSpace(s.charCodeAt(e - 1))) e--;
      return s.slice(a, e);
    }
    case "collapse-spaces": return s.replace(SPACES, " ");
    case "strip-spaces": return s.replace(SPACES, "");
    case "strip": return s.replace(step.regex, "");
    case "uppercase": return s.toUpperCase();
    case "lowercase": return lowercase(s);
    default: {   // capitalize: the first letter of a word (after only punctuation) title-cased; words part at white space and hyphens
      let out = "", looking = true;
      for (let i = 0; i < s.length; i++) {
        const c = cpAt(s, i);
        if (c > 0xFFFF) i++;
        let mapped = null;
        if (isWhiteSpace(c) || c === 0x2D || c === 0x2010 || c === 0x2011) looking = true;
        else if (looking && isLetter(c)) { looking = false; mapped = titlecase(c); }
        else if (looking && !(categoryOf(c) & PUNCTUATION)) looking = false;
        out += mapped ?? charOf(c);
      }
      return out;
    }
  }
}
const STEPS = ["trim", "collapse-spaces", "strip-spaces", "strip", "uppercase", "lowercase", "capitalize"];
/** What no export of a type that compiled can hold (a broken mask, date format, …). */
const BROKEN = name => fail(`type '${name}' is broken in the export`, "bad-export");
const NO_AUTOMATON = name => fail(`type '${name}' has a pattern without its automaton (export version 1): export with a newer formulary`, "pattern-without-automaton");

/** Compiles an exported type with parameter values (name → {kind, text}) for `today`, as Swift does. */
function compileType(def, values, today, label) {
  const problems = [];
  const report = (message, code) => { problems.push({ message, code }); return null; };
  const lookup = name => has(values, name) ? values[name] : report(`unknown parameter '$${name}'`, "unknown-parameter");
  const isParam = arg => arg !== null && typeof arg === "object";
  const wrong = (arg, what, text) => report(`parameter '$${arg.parameter}' must be ${what} here, not ${text}`, "parameter-kind");
  const integer = arg => {
    if (!isParam(arg)) return arg;
    const value = lookup(arg.parameter);
    const v = value && value.kind === "integer" ? swiftInt(value.text) : null;
    return value && v === null ? wrong(arg, "an integer", `'${value.text}'`) : v;
  };
  const decimal = arg => {
    let text = arg;
    if (isParam(arg)) {
      const value = lookup(arg.parameter);
      if (!value) return null;
      if (value.kind === "string") return wrong(arg, "a number", `"${value.text}"`);
      text = value.text;
    }
    return decimalConstant(String(text)) ?? report(`'${text}' is not a number`, "invalid-number");
  };
  const date = arg => {
    const value = isParam(arg) && lookup(arg.parameter), bound = isParam(arg) ? value && value.kind === "string" && parseDateBound(value.text) : parseDateBound(arg);
    if (!bound) return !isParam(arg) ? BROKEN(def.name) : value && wrong(arg, `a date such as "2000-01-31" or "today-18y"`, `'${value.text}'`);
    return bound.date ?? offsetDate(today, bound.offset, bound.unit);
  };
  // Messages and labels show the type's numbers as its values are written: `10.5` as `10,5` with a comma.
  const comma = def.decimal_separator === ",", spell = t => comma ? t.replaceAll(".", ",") : t;
  const texts = Object.fromEntries(Object.entries(values).map(([name, v]) => [name, v.text]));
  const shown = Object.fromEntries(Object.entries(values).map(([name, v]) => [name, v.kind === "decimal" ? spell(v.text) : v.text]));
  const template = (text, min, max) => messageTemplate(text, { ...shown, min, max }, def.secure === true);

  const steps = (def.normalize || []).map(step => {
    if (!STEPS.includes(step.step)) fail(`type '${def.name}' has an unknown normalization step ${JSON.stringify(step.step)}`, "bad-export");
    // `strip`: its characters as `\u{…}` in a class (`]`, `\`, `^` and `-` need no care).
    return step.step !== "strip" ? step : { step: "strip", regex: new RegExp(`[${codePoints(step.characters || "").map(c => `\\u{${c.toString(16)}}`).join("")}]`, "gu") };
  });
  // The masks with a condition up to the first without one, which is the default.
  let mask = null, maskCheck = null, maskName = null;
  const choices = [], masks = [];
  for (const rule of def.masks || []) {
    const compiled = Mask.parse(rule.typing_pattern ?? rule.pattern);
    if (!compiled) BROKEN(def.name);
    masks.push(compiled);
    const slots = String(compiled.slotCount);
    const check = rule.checks_fill ? { rule: rule.rule, severity: rule.severity, finalOnly: rule.final_only === true,
      message: template(rule.message ?? `Expected the format ${compiled.display}`, slots, slots) } : null;
    if (mask) continue;
    if (!rule.when) { mask = compiled; maskCheck = check; maskName = rule.rule; continue; }
    if (rule.when.automaton === undefined) NO_AUTOMATON(def.name);
    choices.push({ mask: compiled, condition: new Automaton(rule.when.automaton, `type '${def.name}''s mask "${rule.pattern}"`), check, name: rule.rule });
  }
  const checks = [];
  for (const rule of def.checks || []) {
    // `if $NAME = "VALUE"`: compiled (mistakes reported), kept only when the parameter has that value.
    const a = rule.arguments || {}, r = a.range, kept = !rule.if || (has(values, rule.if.parameter) && values[rule.if.parameter].text === rule.if.equals);
    let payload = null, min = "", max = "", fallback;
    switch (rule.kind) {
      case "length": {
        const lower = r.lower === null ? 0 : integer(r.lower), upper = r.upper === null ? null : integer(r.upper);
        if ((r.lower !== null && lower === null) || (r.upper !== null && upper === null)) continue;
        if (r.lower !== null) min = String(lower);
        if (r.upper !== null) max = String(upper);
        const low = Math.max(0, r.lower_exclusive && r.lower !== null ? lower + 1 : lower), high = upper === null ? null : r.upper_inclusive ? upper : upper - 1;
        if (high !== null && high < low) { report("the length range is empty: no value can satisfy it", "empty-range"); continue; }
        if (!has(NOUNS, a.unit)) fail(`type '${def.name}' counts a length in an unknown unit ${JSON.stringify(a.unit)}`, "bad-export");
        payload = { lower: low, upper: high, unit: a.unit };
        fallback = lengthMessage(low, high, a.unit);
        break;
      }
      case "integer": fallback = "Must be a whole number"; break;
      case "decimal": {
        const places = (a.places ?? null) === null ? null : integer(a.places);
        if (places === null && (a.places ?? null) !== null) continue;
        if (places < 0) { report(`places must not be negative (${places})`, "negative-places"); continue; }
        payload = { places, comma };
        max = places === null ? "" : String(places);
        fallback = places === null ? "Must be a number" : places === 0 ? "Must be a whole number"
          : `Must be a number with at most ${places} decimal place${places === 1 ? "" : "s"}`;
        break;
      }
      case "range": {
        const lower = r.lower === null ? null : decimal(r.lower), upper = r.upper === null ? null : decimal(r.upper);
        if ((r.lower !== null && !lower) || (r.upper !== null && !upper)) continue;
        payload = Object.assign(new DecimalRange(lower, r.lower_exclusive, upper, r.upper_inclusive), { comma });
        const c = lower && upper && compareDecimals(lower.parts, upper.parts);
        if (c > 0 || (c === 0 && (r.lower_exclusive || !r.upper_inclusive))) { report("the range is empty: no number can satisfy it", "empty-range"); continue; }
        min = lower ? spell(lower.text) : ""; max = upper ? spell(upper.text) : "";
        fallback = rangeMessage(payload, spell);
        break;
      }
      case "pattern":
        if (!kept) continue;   // its automaton, a big one in phone-intl's region lines, is not built
        if (a.automaton === undefined) NO_AUTOMATON(def.name);
        payload = { automaton: new Automaton(a.automaton, `type '${def.name}''s rule '${rule.rule}'`), negate: a.negate === true };
        fallback = a.negate ? "Is in a format that is not allowed" : "Is not in the expected format";
        break;
      case "charset":
        payload = new Charset(a.classes || []);
        fallback = "May only contain " + (a.classes || []).map(c => c.class === "literal" ? `"${c.characters}"` : c.class === "alphanumerics" ? "letters and digits" : c.class).join(", ");
        break;
      case "one-of":
        if (!a.options || !a.options.length) BROKEN(def.name);
        payload = { options: a.options.map(o => a.ignore_case ? lowercase(o) : o), ignoreCase: a.ignore_case === true };
        fallback = "Must be one of: " + a.options.join(", ");
        break;
      case "date": {
        const format = parseDateFormat(a.format);
        if (!format) BROKEN(def.name);
        const from = r && r.lower !== null ? date(r.lower) : null, to = r && r.upper !== null ? date(r.upper) : null;
        if ((r && r.lower !== null && !from) || (r && r.upper !== null && !to)) continue;
        const first = from && dayNumber(from.year, from.month, from.day) + (r.lower_exclusive ? 1 : 0);
        const last = to && dayNumber(to.year, to.month, to.day) - (r.upper_inclusive ? 0 : 1);
        if (from && to && first > last) { report("the date range is empty: no date can satisfy it", "empty-range"); continue; }
        payload = new DateCheck(format, from ? first : null, to ? last : null, today.year);
        const [f, l] = [payload.firstDate && dateText(payload.firstDate), payload.lastDate && dateText(payload.lastDate)];
        min = f || ""; max = l || "";
        fallback = `Must be a real date in the format ${a.format}` + (f && l ? ` from ${f} to ${l}` : f ? ` on or after ${f}` : l ? ` on or before ${l}` : "");
        break;
      }
      case "checksum":
        if (!has(checksums, a.algorithm)) fail(`type '${def.name}' uses the checksum ${JSON.stringify(a.algorithm)}, which this runtime does not know: leave the check to the server`, "unknown-checksum");
        payload = a.algorithm;
        fallback = CHECKSUM_MESSAGES[a.algorithm];
        break;
      case "mask-one-of": {   // mask names, or a string parameter holding them (its argument's checked by bindArguments)
        const names = Array.isArray(a.masks) ? a.masks : words(lookup(a.masks.parameter)?.text ?? "");
        if (!names.length || names.some(n => !maskNamesOf(def).includes(n))) BROKEN(def.name);
        payload = new Set(names);
        fallback = "Must be formatted as one of: " + names.join(", ");
        break;
      }
      default: fail(`type '${def.name}' has a check of unknown kind ${JSON.stringify(rule.kind)}`, "bad-export");
    }
    if (!kept) continue;
    checks.push(new Check(rule.kind, rule.rule, rule.severity, rule.final_only === true, template(rule.message ?? fallback, min, max), payload));
  }
  // A mask fills to a known length: an error's `length` it never meets is a contradiction.
  for (const m of masks) {
    for (const { kind, severity, payload: p } of checks) {
      if (kind !== "length" || severity !== "error") continue;
      let low = 0, high = 0;
      m.kinds.forEach((k, i) => {   // a letter slot takes up to U+10FFFF's length
        const w = k === LITERAL ? lengthIn(m.literalText[i], p.unit) : 1;
        low += w;
        high += k === LITERAL || k === DIGIT ? w : lengthIn("\u{10FFFF}", p.unit);
      });
      if (high < p.lower || (p.upper !== null && low > p.upper)) report(`the mask "${m.display}" fills to ${low === high ? low : `${low} to ${high}`} ${p.unit}, which this length rule never allows`, "mask-length-conflict");
    }
  }
  if (problems.length) fail(`${label} does not compile: ` + problems.map(p => p.message).join("; "), problems[0].code);
  return new FieldType(def, texts, steps, mask, maskCheck, choices, checks, maskName, shown);
}

// MARK: Field types

/** One judged value: verdict, formatted value, failed rules in order (the mask first). */
export class FieldResult {
  constructor(formatted, verdict, violations, absent, mask = null) {
    /** The normalized, mask-formatted value (the raw value when absent). */
    this.formatted = formatted;
    /** `valid`, `invalid`, or (live) `incomplete`. */
    this.verdict = verdict;
    /** `[{rule, severity, message}]`, in rule order. */
    this.violations = violations;
    /** The value was empty or only white space: no check ran. */
    this.absent = absent;
    /** The name (`as visa`: a card's brand) of the mask that formatted the value, or null: none, unnamed, or `secure`. */
    this.mask = mask;
  }
  /** Whether the verdict is `valid`. */
  get valid() { return this.verdict === "valid"; }
  /** The message to show: the first error's, else the first warning's, else null. */
  get message() { return (this.violations.find(isError) ?? this.violations[0])?.message ?? null; }
}

const LIVE = { stage: "live" };
const isLive = options => options?.stage === "live";

/** A field type compiled with its parameter values: judges, formats and unformats values. */
export class FieldType {
  constructor(def, texts, steps, mask, maskCheck, choices, checks, maskName, shown) {
    /** The type's name. */
    this.name = def.name;
    /** Every parameter's value (name → text), defaults included. */
    this.arguments = texts;
    Object.assign(this, { def, steps, mask, maskCheck, choices, checks, maskName, hasMask: mask !== null || choices.length > 0 });
    // Per ASCII first slot character, the choices whose automaton survives it.
    this.all = choices.map((_, k) => k);
    this.byFirst = Array.from({ length: 128 }, (_, c) => this.all.filter(k => choices[k].condition.run(String.fromCharCode(c))));
    this.hasNumberGroups = [mask, ...choices.map(c => c.mask)].some(m => m && m.numbers.length > 0);
    this.normalizationSeesTheMark = steps.some(s => s.step === "trim" || s.step === "collapse-spaces" || s.step === "capitalize");
    /** How to show the field: label, help, placeholder (parameters filled in), keyboard… */
    this.definition = Object.freeze({
      name: def.name, ...Object.fromEntries(["label", "help", "placeholder", "keyboard", "autocapitalize", "autocomplete", "version"].map((k, i) => [k, i < 3 && def[k] ? messageTemplate(def[k], shown)("") : def[k] ?? null])),
      secure: def.secure === true, timing: def.timing || "leaving", decimalSeparator: def.decimal_separator || ".",
      parameters: (def.parameters || []).map(p => ({ name: p.name, kind: p.kind, default: p.default_text ?? String(p.default) })),
    });
  }
  /** When the type's messages are shown: `typing`, `leaving` (the default) or `submit`. */
  get timing() { return this.definition.timing; }
  normalize(s) { for (let k = 0; k < this.steps.length; k++) s = normalizeStep(this.steps[k], s); return s; }
  normalizedCodePoints(s) { return codePoints(this.normalize(s)); }
  /** The choices whose condition takes the value's slot characters, final then live; -1: none. */
  chooseMasks(value) {
    const slots = slotsOf(value);
    let live = -1;   // no later than the final choice, which takes the value live too
    for (const k of this.byFirst[slots.charCodeAt(0)] ?? this.all) {
      const outcome = this.choices[k].condition.run(slots) & 3;
      if (live < 0 && (outcome || !slots)) live = k;
      if (outcome === 2) return [k, live];
    }
    return [-1, live];
  }
  /** The name of mask `choice` (-1: unconditional), or null; `named`: as `FieldResult.mask`. */
  nameOf(choice, named) { const name = choice >= 0 ? this.choices[choice].name : this.mask && this.maskName; return named && (this.definition.secure || name === "mask") ? null : name; }
  /** `mask-one-of`: the chosen mask is named; live, or a named one still can be (unconditional, no slots yet, or a named `when` alive). */
  maskOneOf(names, b, choice, live) {
    if (names.has(this.nameOf(choice))) return true;
    if (!live || (this.mask && names.has(this.maskName))) return live;
    const slots = slotsOf(b);
    return !slots || this.choices.some(c => names.has(c.name) && c.condition.run(slots) & 3);
  }
  /** `current` (normalized) laid into the mask of `choice`: {b, fit (null without a mask), choice}. */
  laidOut(current, choice) {
    const mask = choice >= 0 ? this.choices[choice].mask : this.mask;
    if (!mask) return { b: current, fit: null, choice };
    const f = mask.format(current);
    return { b: f.text, fit: f.fit, choice };
  }
  violations(p, live) {
    const found = [], mc = p.fit === null ? null : p.choice < 0 ? this.maskCheck : this.choices[p.choice].check;
    if (mc && !(live && mc.finalOnly) && !(live ? p.fit !== "broken" : p.fit === "filled")) found.push({ rule: mc.rule, severity: mc.severity, message: mc.message(p.b) });
    for (const check of this.checks) {
      if ((!live || check.runsLive) && !(check.kind === "mask-one-of" ? this.maskOneOf(check.payload, p.b, p.choice, live) : check.evaluate(p.b, live))) found.push({ rule: check.rule, severity: check.severity, message: check.message(p.b) });
    }
    return found;
  }
  /** Judges one value, in the final stage or (`{stage: "live"}`) as a prefix being typed. */
  validate(value, options) {
    value = wellFormed(value);
    if (isBlank(value)) return new FieldResult(value, "valid", [], true);
    const current = this.normalize(value), [f, l] = this.choices.length ? this.chooseMasks(current) : [-1, -1];
    const p = this.laidOut(current, f), errors = v => v.some(isError), final = this.violations(p, false);
    if (!isLive(options)) return new FieldResult(p.b, errors(final) ? "invalid" : "valid", final, false, this.nameOf(p.choice, true));
    const lp = l === f ? p : this.laidOut(current, l), live = this.violations(lp, true);
    return new FieldResult(lp.b, !errors(final) ? "valid" : errors(live) ? "invalid" : "incomplete", live, false, this.nameOf(lp.choice, true));
  }
  /** Whether the value passes the final stage (warnings do not count; an absent value passes). */
  isValid(value) { return this.validate(value).valid; }
  /** The value normalized and formatted; `{stage: "live"}`: with the mask typing chooses. */
  format(value, options) {
    value = wellFormed(value);
    if (isBlank(value)) return value;
    const current = this.normalize(value);
    return this.laidOut(current, this.choices.length ? this.chooseMasks(current)[+isLive(options)] : -1).b;
  }
  /** The value without what the mask inserted: `format(unformat(format(v))) == format(v)`. */
  unformat(text) {
    text = wellFormed(text);
    if (isBlank(text)) return text;
    const normalized = this.normalize(text), value = codePoints(normalized), mask = this.hasMask && this.chosenMask(value, false);
    if (!mask) return normalized;
    const layout = mask.layout(value);
    let kept = value.length;
    if (!layout.filled) while (kept > 0 && layout.takenAsLiteral[kept - 1]) kept--;   // a literal typed at the end stays
    return stringOf(value.filter((c, i) => !layout.takenAsLiteral[i] || i >= kept));
  }
  /** The mask (and fill check) chosen for normalized code points, or null. */
  chosenMaskAndCheck(cps, live) {
    const choice = this.choices.length ? this.chooseMasks(stringOf(cps))[+live] : -1;
    return choice >= 0 ? this.choices[choice] : this.mask && { mask: this.mask, check: this.maskCheck };
  }
  chosenMask(cps, live) { return this.chosenMaskAndCheck(cps, live)?.mask; }
  /** The length limit a counter shows ({min, max, unit, rule, severity}), or null. */
  get lengthLimit() {
    const all = this.checks.filter(c => c.kind === "length").map(c => ({ min: c.payload.lower, max: c.payload.upper, unit: c.payload.unit, rule: c.rule, severity: c.severity }));
    return all.find(l => l.max !== null && isError(l)) ?? all.find(l => l.max !== null) ?? all[0] ?? null;
  }
  /** The text's length as the length limit counts it (normalized, masked); 0 when absent. */
  length(text) {
    text = wellFormed(text);
    return isBlank(text) ? 0 : lengthIn(this.format(text), this.lengthLimit?.unit ?? "graphemes");
  }
  /** How a form's `compare` reads this type's values: `date`, `number` or `text`. */
  get comparisonReading() {
    const kinds = (this.def.checks || []).map(c => c.kind);
    return kinds.includes("date") ? "date" : kinds.includes("integer") || kinds.includes("decimal") ? "number" : "text";
  }
}

// MARK: Type references and parameters

/** `name` or `name(arg: 1, other: 2.5, text: "…")`: {name, arguments: [{name, kind, text}]}. */
function parseReference(text) {
  const bad = why => fail(`the type reference ${JSON.stringify(text)} ${why}`, "bad-reference");
  if (typeof text !== "string") bad("is not a string");
  const token = /\s*(?:([\p{L}_][\p{L}\p{N}_-]*)|(-?[0-9]+(?:\.[0-9]+)?)(?![\p{L}\p{N}_.])|"((?:[^"\\]|\\(?:["\\nrt]|u\{[0-9A-Fa-f]{1,6}\}))*)"|([(),:]))/uy;
  const tokens = [];
  let at = 0;
  for (let m; at < text.length && (m = token.exec(text)); at = token.lastIndex) tokens.push(m);
  if (/\S/.test(text.slice(at))) bad(`has something unexpected at column ${at + 1}`);
  let k = 0;
  const next = (what, group) => tokens[k] && tokens[k][group] !== undefined ? tokens[k++][group] : bad(`needs ${what}`);
  const punct = p => tokens[k] && tokens[k][4] === p && ++k;
  const name = next("a type name", 1), args = [];
  if (punct("(") && !punct(")")) {
    do {
      const arg = next("a parameter name", 1);
      if (!punct(":")) bad(`needs ':' and a value after '${arg}'`);
      const t = tokens[k++] || [];
      if (t[2] !== undefined) args.push({ name: arg, kind: t[2].includes(".") ? "decimal" : "integer", text: t[2] });
      else if (t[3] !== undefined) {
        const value = t[3].replace(/\\(u\{([0-9A-Fa-f]+)\}|.)/g, (_, e, hex) => hex ? String.fromCodePoint(parseInt(hex, 16)) : { n: "\n", r: "\r", t: "\t" }[e] ?? e);
        args.push({ name: arg, kind: "string", text: value });
      } else bad(`needs a value after '${arg}:': a number or a string in double quotes`);
    } while (punct(","));
    if (!punct(")")) bad("needs ',' or ')' after an argument");
  }
  if (k !== tokens.length) bad("has something after the reference");
  return { name, arguments: args };
}
const referenceKey = ref => ref.arguments.length ? `${ref.name}(${ref.arguments.map(a => `${a.name}: ${a.kind === "string" ? JSON.stringify(a.text) : a.text}`).join(", ")})` : ref.name;

/** The candidate within 2 edits (1 for short words; a swap is one), or null. */
function nearest(word, candidates) {
  const x = codePoints(lowercase(word));
  let best = null, bestDistance = Infinity;
  for (const candidate of candidates) {
    const y = codePoints(candidate);
    if (candidate === word || Math.abs(x.length - y.length) > 2) continue;
    const t = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => i || j));
    for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) {
      t[i][j] = Math.min(t[i - 1][j] + 1, t[i][j - 1] + 1, t[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) t[i][j] = Math.min(t[i][j], t[i - 2][j - 2] + 1);
    }
    const d = t[x.length][y.length];
    if (d <= (Math.min(x.length, y.length) <= 3 ? 1 : 2) && d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best;
}
/** "; did you mean 'x'?" for the nearest candidate, or "". */
const didYouMean = (word, candidates) => (word = nearest(word, candidates)) ? `; did you mean '${word}'?` : "";
/** The names of a type's masks, each once: what `mask-one-of` may name. */
const maskNamesOf = def => [...new Set((def.masks || []).map(m => m.rule))];
/** `"", "AC", … "ZW" (246 values)`: the first twelve and the last past sixteen. */
const oneOf = list => (list = list.map(v => `"${v}"`), list.length > 16 ? `${list.slice(0, 12).join(", ")}, … ${list.at(-1)} (${list.length} values)` : list.join(", "));

/** A reference's arguments bound to a type's parameters (name → {kind, text}), with defaults. */
function bindArguments(def, args) {
  const parameters = def.parameters || [], values = {}, given = new Set(), problems = [], choices = {}, wordChoices = {};
  for (const p of parameters) values[p.name] = { kind: p.kind, text: p.default_text ?? String(p.default) };
  // An `if` parameter: its default and the values compared; a `mask-one-of` one: mask names.
  for (const { if: c, kind, arguments: a } of def.checks || []) {
    if (c && !(choices[c.parameter] ??= has(values, c.parameter) ? [values[c.parameter].text] : []).includes(c.equals)) choices[c.parameter].push(c.equals);
    if (kind === "mask-one-of" && !Array.isArray(a.masks)) wordChoices[a.masks.parameter] = maskNamesOf(def);
  }
  const near = (word, list, any) => { const n = list.find(c => lowercase(c) === lowercase(word)) ?? (any ? nearest(word, list) : null); return `"${word}"` + (n === null ? "" : `; did you mean "${n}"?`); };
  for (const arg of args) {
    const p = parameters.find(p => p.name === arg.name), names = parameters.map(p => p.name), takes = `parameter '${arg.name}' of type '${def.name}' takes `;
    const string = p && p.kind === "string" && arg.kind === "string", allowed = string && choices[p.name], masks = string && wordChoices[p.name];
    const list = masks ? words(arg.text) : [], wrong = list.find(w => !masks.includes(w));
    if (given.has(arg.name)) problems.push(`argument '${arg.name}' is given twice`);
    else if (!p) problems.push(`type '${def.name}' has no parameter '${arg.name}'` + (didYouMean(arg.name, names) || (names.length ? ` (its parameters are ${names.join(", ")})` : " (it takes no parameters)")));
    else if (allowed && !allowed.includes(arg.text)) problems.push(`${takes}one of ${oneOf(allowed)}; found the string ${near(arg.text, allowed)}`);
    else if (masks && (!list.length || wrong !== undefined)) problems.push(`${takes}names from ${oneOf(masks)}, separated by spaces; found ${wrong === undefined ? "no name" : near(wrong, masks, true)}`);
    else if (p.kind === arg.kind || (p.kind === "decimal" && arg.kind === "integer")) values[arg.name] = { kind: p.kind, text: arg.text };
    else problems.push(`${takes}${{ decimal: "a number", integer: "an integer", string: "a string" }[p.kind]}, not the ${arg.kind} ${arg.kind === "string" ? JSON.stringify(arg.text) : arg.text}`);
    given.add(arg.name);
  }
  if (problems.length) fail(problems.join("; "), "bad-arguments");
  return values;
}

// MARK: Catalog

/** The export versions this runtime reads. */
export const EXPORT_VERSIONS = Object.freeze([1, 2]);

/** The registry's types and forms, from the document `formulary export` prints. */
export class Catalog {
  constructor(document, today, l = null) {
    /** The day `today±N` bounds and two-digit years resolve against, `YYYY-MM-DD`. */
    this.today = dateText(today);
    Object.assign(this, { document, l, todayDate: today, types: new Map(), forms: new Map(), compiled: new Map(), formCache: new Map() });
    for (const [list, map, what] of [[document.types, this.types, "type"], [document.forms || [], this.forms, "form"]]) {
      for (const item of list) (item && typeof item.name === "string" ? map.set(item.name, item) : fail(`the export has a ${what} without a name`, "bad-export"));
    }
    /** The type names, sorted. */
    this.typeNames = [...this.types.keys()].sort(compareCodePoints);
    /** The form names, sorted. */
    this.formNames = [...this.forms.keys()].sort(compareCodePoints);
  }
  /** A catalog from an export document (object or JSON text); `{today: "YYYY-MM-DD", locale}`. */
  static fromExport(exportJson, options = {}) {
    let document = exportJson;
    if (typeof document === "string") try { document = JSON.parse(document); } catch (error) { fail(`the export is not JSON: ${error.message}`, "bad-export"); }
    if (!document || typeof document !== "object" || Array.isArray(document)) fail("the export is not a JSON object", "bad-export");
    const version = document.formulary_export_version;
    if (!EXPORT_VERSIONS.includes(version)) fail(`this runtime reads export versions ${EXPORT_VERSIONS.join(" and ")}, and the document is version ${JSON.stringify(version ?? null)}: use the formulary.js of the formulary that wrote it (GET /v1/runtime/formulary.js)`, "export-version");
    if (!Array.isArray(document.types)) fail("the export has no types array", "bad-export");
    const now = new Date();
    const today = (options.today ?? null) === null ? { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() }
      : parseISODate(options.today) ?? fail(`today must be a date written YYYY-MM-DD, not ${JSON.stringify(options.today)}`, "bad-today");
    let t = options.locale, l = document.locales ?? {};
    while (t && !l[t]) t = t.slice(0, Math.max(0, t.lastIndexOf("-")));
    return new Catalog(document, today, t ? l[t] : null);
  }
  /** Fetches an export (`/v1/export`, a file) and reads it; `{today, fetch: RequestInit}`. */
  static async load(url, options = {}) {
    const response = await fetch(url, options.fetch);
    if (!response.ok) fail(`${url} answered ${response.status}`, "load-failed");
    return Catalog.fromExport(await response.text(), options);
  }
  /** The compiled type a reference names (`age(min: 18)`); FormularyError if none. */
  fieldType(reference) { const ref = parseReference(reference); return this.typeOf(ref, `type '${referenceKey(ref)}'`); }
  typeOf(ref, label) {
    const key = referenceKey(ref);
    if (this.compiled.has(key)) return this.compiled.get(key);
    const def = this.types.get(ref.name) ?? fail(`unknown type '${ref.name}'` + didYouMean(ref.name, this.typeNames), "unknown-type");
    const t = this.l?.types[def.name], m = r => t?.rules?.[r.rule] ? { ...r, message: t.rules[r.rule] } : r;
    const type = compileType(t ? { ...def, ...t, masks: def.masks?.map(m), checks: def.checks?.map(m) } : def, bindArguments(def, ref.arguments), this.todayDate, label);
    this.compiled.set(key, type);
    return type;
  }
  /** The form called `name`. */
  form(name) {
    if (!this.formCache.has(name)) {
      const def = this.forms.get(name) ?? fail(`unknown form '${name}'` + didYouMean(name, this.formNames), "unknown-form");
      this.formCache.set(name, new Form(this, def));
    }
    return this.formCache.get(name);
  }
}

// MARK: Forms

const HOLDS = { "<": o => o < 0, "<=": o => o <= 0, ">": o => o > 0, ">=": o => o >= 0, "=": o => o === 0, "!=": o => o !== 0 };
// The English messages of a form's rules by catalog item (the engine's RuleTexts), naming a field by its
// label, else its key in quotes; `compare`'s items and words by operator, for dates then numbers and text.
const RULE_TEXTS = { required: "{label} is required", same: "{a} and {b} differ", require: "{label} is required when {when} is given" };
const COMPARISONS = {
  "<": ["before", "be before", "less", "be less than"], "<=": ["on-or-before", "be on or before", "at-most", "be at most"],
  ">": ["after", "be after", "greater", "be greater than"], ">=": ["on-or-after", "be on or after", "at-least", "be at least"],
  "=": ["same-date", "be the same date as", "equal", "equal"], "!=": ["other-date", "be another date than", "differ", "differ from"],
};
for (const words of Object.values(COMPARISONS)) for (const k of [0, 2]) RULE_TEXTS["compare-" + words[k]] = `{a} must ${words[k + 1]} {b}`;
const entryVerdict = vs => vs.some(isError) ? "invalid" : vs.length ? "warnings" : "valid";

/** A form: its fields' compiled types, `required`, and the cross-field rules. */
export class Form {
  constructor(catalog, def) {
    const l = catalog.l?.forms;
    /** The form's name. */
    this.name = def.name;
    /** The form's label, or null. */
    this.label = def.label ?? null;
    this.definition = def;
    this.fields = def.fields.map(f => {
      const args = f.argument_list ?? Object.entries(f.arguments || {}).map(([name, v]) =>
        ({ name, kind: typeof v === "string" ? "string" : String(v).includes(".") ? "decimal" : "integer", text: String(v) }));
      const o = l?.[def.name]?.[f.key], label = o?.label ?? f.label ?? null;
      // An export without `required_message` (older) gets the default, as the engine says it.
      return { key: f.key, typeName: f.type, required: f.required === true, label, timing: f.timing ?? null,
               rm: o?.required_message ?? f.required_message ?? fill(RULE_TEXTS.required, { label: label ?? `'${f.key}'` }),
               type: catalog.typeOf({ name: f.type, arguments: args }, `field '${f.key}' of form '${def.name}'`) };
    });
    this.index = new Map();
    this.fields.forEach((f, i) => { if (!this.index.has(f.key)) this.index.set(f.key, i); });
    // Rules naming undeclared fields are left out; `unique` needs other entries. Messages name fields,
    // never values: filled in once, from the locale's text for the rule, its own, the locale's default, the English one.
    const name = i => this.fields[i].label ?? `'${this.fields[i].key}'`, at = key => this.index.get(key);
    this.rules = [];
    for (const rule of def.rules || []) {
      const [a, b] = rule.fields.map(at), t = at(rule.when), ab = a !== undefined && b !== undefined && { a: name(a), b: name(b) };
      const text = (item, names) => fill(l?.[def.name]?.["*"]?.[rule.rule] ?? rule.message ?? l?.["*"]?.["*"]?.[item] ?? RULE_TEXTS[item], names);
      if (rule.kind === "same" && ab) this.rules.push({ rule, a, b, m: text("same", ab) });
      if (rule.kind === "require" && t !== undefined) {
        const required = rule.fields.map(at).filter(i => i !== undefined);
        this.rules.push({ rule, t, required, m: required.map(i => text("require", { label: name(i), when: name(t) })) });
      }
      if (rule.kind === "compare" && ab && HOLDS[rule.operator]) {
        const ra = this.fields[a].type.comparisonReading, reading = ra === this.fields[b].type.comparisonReading ? ra : "text";
        this.rules.push({ rule, a, b, reading, m: text("compare-" + COMPARISONS[rule.operator][reading === "date" ? 0 : 2], ab) });
      }
    }
  }
  /** The field keys, in form order. */
  get fieldKeys() { return this.fields.map(f => f.key); }
  /** The compiled type of field `key`, with the form's arguments. */
  fieldType(key) {
    const i = this.index.get(key);
    return i === undefined ? fail(`form '${this.name}' has no field '${key}'` + didYouMean(key, this.fieldKeys), "undeclared-field") : this.fields[i].type;
  }
  /** Judges one filled-in form (key → value) as `formulary forms judge` does, final or `{stage: "live"}`. */
  judge(values, options) {
    const given = new Map();
    for (const [key, value] of Object.entries(values || {})) if ((value ?? null) !== null) given.set(key, wellFormed(value));
    const found = [];
    // Per field: 0 absent, 1 no violation at all, 2 some; and its final result.
    const finals = this.fields.map(f => { const v = given.get(f.key); return v === undefined || isBlank(v) ? null : f.type.validate(v); });
    const states = finals.map(r => r === null ? 0 : r.violations.length ? 2 : 1);
    this.fields.forEach((f, i) => {
      if (!states[i] && f.required) found.push({ field: f.key, type: f.typeName, rule: "required", severity: "error", message: f.rm });
      if (states[i] === 2) for (const v of finals[i].violations) found.push({ field: f.key, type: f.typeName, ...v });
    });
    const rule = (field, { rule: r }, message) => ({ field, type: null, rule: r.rule, severity: r.severity, message, fields: r.fields });
    for (const kind of ["same", "require", "compare"]) for (const r of this.rules) {
      if (r.rule.kind !== kind) continue;
      if (kind === "require") {
        if (states[r.t]) r.required.forEach((i, k) => states[i] || found.push(rule(this.fields[i].key, r, r.m[k])));
        continue;
      }
      if (!states[r.a] || !states[r.b]) continue;
      const A = this.fields[r.a], B = this.fields[r.b], x = given.get(A.key), y = given.get(B.key);
      if (kind === "same") {
        if (!(A.type === B.type && x === y) && A.type.format(x) !== B.type.format(y)) found.push(rule(B.key, r, r.m));
        continue;
      }
      if ((states[r.a] === 2 && !finals[r.a].valid) || (states[r.b] === 2 && !finals[r.b].valid)) continue;   // a side reports its own problem
      const order = compareValues(x, A.type, y, B.type, r.reading);
      if (order !== null && !HOLDS[r.rule.operator](order)) found.push(rule(B.key, r, r.m));
    }
    const unknown = [...given.keys()].sort(swiftOrder).filter(k => !this.index.has(k));
    for (const key of unknown) if (!isBlank(given.get(key))) found.push({ field: key, type: null, rule: "unknown-field", severity: "warning", message: `'${key}' is not a field of form '${this.name}'`, fields: [key] });
    const plain = v => ({ field: v.field, rule: v.rule, severity: v.severity, message: v.message, fields: v.fields ?? [v.field] });
    const fields = {};
    if (!isLive(options)) {
      this.fields.forEach((f, i) => {
        const own = found.filter(v => v.type !== null && v.field === f.key).map(v => ({ rule: v.rule, severity: v.severity, message: v.message }));
        fields[f.key] = new FieldResult(finals[i] ? finals[i].formatted : given.get(f.key) ?? "", entryVerdict(own) === "invalid" ? "invalid" : "valid", own, !finals[i]);
      });
      return new FormResult(entryVerdict(found), fields, found.filter(v => v.type === null).map(plain), unknown, found.map(plain));
    }
    const live = [];
    for (const f of this.fields) {
      const result = fields[f.key] = f.type.validate(given.get(f.key) ?? "", LIVE);
      for (const v of result.violations) live.push({ field: f.key, type: f.typeName, ...v });
    }
    const formViolations = found.filter(v => v.type === null && unknown.includes(v.field));
    live.push(...formViolations);
    let verdict = entryVerdict(live);
    if (verdict !== "invalid" && this.fields.some(f => fields[f.key].verdict === "incomplete" || (f.required && fields[f.key].absent))) verdict = "incomplete";
    return new FormResult(verdict, fields, formViolations.map(plain), unknown, live.map(plain));
  }
}

/** -1, 0 or 1 comparing two present values as `reading` says, or null. */
function compareValues(x, a, y, b, reading) {
  if (reading === "date") {
    const day = (value, type) => { const check = type.checks.find(c => c.kind === "date"); return check ? check.payload.firstDay(type.format(value)) : null; };
    const dx = day(x, a), dy = day(y, b);
    return dx === null || dy === null ? null : Math.sign(dx - dy);
  }
  const cx = a.format(x), cy = b.format(y);
  if (reading === "text") return compareCodePoints(cx, cy);
  const number = (v, t) => decimalParts(dotted(v, t.definition.decimalSeparator === ",")), nx = number(cx, a), ny = number(cy, b);
  return nx && ny ? compareDecimals(nx, ny) : null;
}

/** A whole form's judgement; its members are documented in formulary.d.ts. */
export class FormResult {
  constructor(verdict, fields, formViolations, unknownFields, violations) { Object.assign(this, { verdict, fields, formViolations, unknownFields, violations }); }
}

// MARK: Editing

const POLICIES = ["refuse-invalid", "accept-all"];
const policyOf = policy => POLICIES.includes(policy) ? policy : fail(`the policy is "refuse-invalid" or "accept-all", not ${JSON.stringify(policy)}`, "bad-argument");

/** A text's code points, where its graphemes start (null: one code point each), their count. */
function characterMap(text) {
  const scalars = codePoints(text);
  let starts = null;
  if (scalars.some(c => c >= 0x80 || c === 13)) {
    starts = [];
    let offset = 0;
    for (const g of graphemes(text)) { starts.push(offset); offset += codePoints(g).length; }
  }
  return {
    scalars, count: starts ? starts.length : scalars.length,
    offset: c => !starts ? c : c < starts.length ? starts[c] : scalars.length,
    /** The grapheme that holds code point `s`. */
    holding: s => starts ? starts.findLastIndex(x => x <= s) : s,
  };
}

/**
 * A text field's state, edited keystroke by keystroke as the Swift `FieldEditor` edits it.
 * Positions are UTF-16 code units; one inside a grapheme is rounded to its start (`from`) or end (`to`).
 * Its public members are documented in formulary.d.ts.
 */
export class FieldEditor {
  constructor(type, options = {}) {
    if (!(type instanceof FieldType)) fail("a FieldEditor needs a FieldType (catalog.fieldType(…))", "bad-argument");
    this.type = type;
    this.policy = policyOf(options.policy ?? "refuse-invalid");
    this.timing = options.timing ?? type.timing;
    this.externalError = null;
    this._setText(wellFormed(options.text ?? ""));
    const caret = this._at(options.caret ?? this._text.length, false);
    this._selection = [caret, caret];
    this._judged = type.validate(this._text, LIVE);
  }
  get text() { return this._text; }
  get selectionStart() { return this._bounds()[this._selection[0]]; }
  get selectionEnd() { return this._bounds()[this._selection[1]]; }
  get caret() { return this.selectionEnd; }
  get result() {
    const r = this._judged, e = this.externalError;
    return (e ?? null) === null ? r : new FieldResult(r.formatted, "invalid", [{ rule: "external", severity: "error", message: e }, ...r.violations], r.absent, r.mask);
  }
  _setText(text) { this._text = text; this._boundsCache = null; }
  _bounds() { return this._boundsCache ??= graphemeBounds(this._text); }
  get _count() { return this._bounds().length - 1; }
  /** The grapheme at UTF-16 `unit` (clamped), rounded down or (`up`) up inside a cluster. */
  _at(unit, up) {
    const bounds = this._bounds(), u = Math.min(Math.max(Number.isFinite(unit) ? Math.trunc(unit) : 0, 0), this._text.length);
    const g = bounds.findLastIndex(b => b <= u);
    return up && bounds[g] < u ? g + 1 : g;
  }
  _range(from, to) { const lower = this._at(from, false); return [lower, Math.max(lower, this._at(to, true))]; }
  replace(from, to, text) { return this._replace(...this._range(from, to), wellFormed(text)); }
  insert(text) { return this._replace(...this._selection, wellFormed(text)); }
  deleteBackward() { const [a, b] = this._selection; return a !== b ? this._replace(a, b, "") : b === 0 ? this._unchanged() : this._replace(b - 1, b, ""); }
  deleteForward() { const [a, b] = this._selection; return a !== b ? this._replace(a, b, "") : b >= this._count ? this._unchanged() : this._replace(b, b + 1, ""); }
  setText(value) { return this._replace(0, this._count, wellFormed(value)); }
  moveCaret(position) { const g = this._at(position, false); this._selection = [g, g]; }
  select(from, to) { this._selection = this._range(from, to); }
  commit() {
    const formatted = this.type.format(this._text);
    if (formatted !== this._text) { this._setText(formatted); this._judged = this.type.validate(formatted, LIVE); }
    const p = Math.min(this._selection[1], this._count);
    this._selection = [p, p];
  }
  visibleMessage(moment) {
    if ((this.externalError ?? null) !== null) return this.externalError;
    if (moment === "typing") return this.timing === "typing" ? this.result.message : null;
    return moment === "leaving" && this.timing === "submit" ? null : this.type.validate(this._text).message;
  }
  get counter() { const l = this.type.lengthLimit; return l && l.max !== null ? { count: this.type.length(this._text), limit: l.max } : null; }
  get counterText() { const c = this.counter; return c && `${c.count}/${c.limit}`; }

  _unchanged() { return { accepted: true, result: this.result, refusal: null }; }
  _replace(lower, upper, replacement) {
    const attempt = this._attempt(lower, upper, replacement);
    if (attempt.applied) { this._take(attempt.candidate); return this._unchanged(); }
    const refusal = this._refusal(attempt.candidate).violation;
    const pasted = graphemeCount(replacement) > 1 && this._filteredPaste(lower, upper, replacement);
    if (pasted) for (const key of ["_text", "_boundsCache", "_selection", "_judged", "externalError"]) this[key] = pasted[key];
    return { accepted: !!pasted, result: this.result, refusal };
  }
  _take(c) {
    if (c.text !== this._text) { this.externalError = null; this._setText(c.text); }
    this._selection = [c.caret, c.caret];
    this._judged = c.result;
  }
  /** One edit's candidate (text, caret in graphemes, live result), and whether the policy takes it. */
  _attempt(lowerG, upperG, replacement) {
    const map = characterMap(this._text), lower = Math.min(Math.max(lowerG, 0), map.count), upper = Math.min(Math.max(upperG, lower), map.count);
    const range = [map.offset(lower), map.offset(upper)], typing = graphemeCount(replacement) === 1;
    const mask = this.type.chosenMask(map.scalars, true), literals = mask ? mask.layout(map.scalars).takenAsLiteral : map.scalars.map(() => false);
    let candidate = this._apply(map, literals, range, replacement, typing);
    if (!replacement && lower < upper && candidate.text === this._text) {
      // It removed only literals the mask puts back: remove the typed character beside them.
      const forward = lower === this._selection[1] && this._selection[0] === this._selection[1], s = map.scalars;
      let k = forward ? range[1] : range[0] - 1;
      while (k >= 0 && k < s.length && literals[k]) k += forward ? 1 : -1;
      candidate = (k >= 0 && k < s.length ? this._apply(map, literals, forward ? [range[0], map.offset(map.holding(k) + 1)] : [map.offset(map.holding(k)), range[1]], "") : null)
        ?? { text: this._text, caret: lower, result: this._judged };
    }
    if (!replacement || this.policy !== "refuse-invalid" || candidate.result.verdict !== "invalid") return { applied: true, candidate };
    // Trailing white space of an unmasked text would refuse every key: the key replaces it.
    const s = map.scalars;
    if (!this.type.hasMask && range[1] === s.length && range[0] > 0 && isWhiteSpace(s[range[0] - 1]) && !allWhiteSpace(codePoints(replacement))) {
      let start = range[0];
      while (start > 0 && isWhiteSpace(s[start - 1])) start--;
      const before = this.type.normalizedCodePoints(stringOf(s, 0, range[0]));
      if (before.length && !isWhiteSpace(before.at(-1))) {
        const retry = this._apply(map, literals, [start, range[1]], replacement, typing);
        if (retry.result.verdict !== "invalid") return { applied: true, candidate: retry };
      }
    }
    return { applied: false, candidate };
  }
  /** Text before the range, the replacement, the rest without mask literals; formatted, caret after the typed. */
  _apply(map, literals, range, replacement, typing = false) {
    const type = this.type, typedScalars = codePoints(replacement);
    const typed = map.scalars.slice(0, range[0]).concat(typedScalars), rest = map.scalars.slice(range[1]).filter((c, k) => !literals[range[1] + k]);
    if (allWhiteSpace(typed) && allWhiteSpace(rest)) {
      const raw = stringOf(typed.concat(rest));
      return { text: raw, caret: graphemeCount(stringOf(typed)), result: type.validate(raw, LIVE) };
    }
    // U+E000 (private use: no step removes or maps it) marks the caret through normalization.
    let normalized = type.normalizedCodePoints(stringOf(typed) + "\uE000" + stringOf(rest));
    const mark = normalized.indexOf(0xE000);
    if (mark >= 0) normalized.splice(mark, 1);
    let typedCount = Math.max(mark, 0), pending = [];
    if (mark < 0 || type.normalizationSeesTheMark) {
      const plain = type.normalizedCodePoints(stringOf(typed.concat(rest)));
      if (mark >= 0 && !type.hasMask && mark === normalized.length && normalized.length > plain.length && allWhiteSpace(typedScalars)
          && plain.every((c, k) => normalized[k] === c) && allWhiteSpace(normalized.slice(plain.length))) {
        pending = normalized.slice(plain.length);   // white space typed at the end, which trimming would remove: kept for now
      } else if (mark < 0 || normalized.length !== plain.length) {
        typedCount = Math.min(type.normalizedCodePoints(stringOf(typed)).length, plain.length);
      }
      normalized = plain;
    }
    if (typing && type.hasNumberGroups && typedCount > 0 && typedCount <= normalized.length && normalized[typedCount - 1] === typedScalars.at(-1)) {
      const padded = type.chosenMask(normalized, true)?.padded(normalized, typedCount - 1);
      if (padded) ({ value: normalized, caret: typedCount } = padded);
    }
    const mask = type.chosenMask(normalized, true);
    let output = normalized.concat(pending), caret = typedCount;
    if (mask) {
      let layout = mask.layout(normalized);
      if (!replacement && typedCount === normalized.length) {
        const last = layout.takenAsLiteral.lastIndexOf(false), kept = last >= 0 ? last + 1 : normalized.length ? 0 : null;
        if (kept !== null && kept < normalized.length) {   // a deletion that leaves literals at the end: they go too
          normalized = normalized.slice(0, kept);
          typedCount = kept;
          layout = mask.layout(normalized);
        }
      }
      output = layout.output;
      caret = typedCount > 0 ? layout.ends[typedCount - 1] : normalized.length ? layout.ends[0] - 1 : 0;
    }
    const text = stringOf(output);
    // The caret in graphemes: those starting before it (one it falls inside counts).
    return { text, caret: caret && output.some(c => c >= 0x80 || c === 13) ? characterMap(text).holding(caret - 1) + 1 : caret, result: type.validate(text, LIVE) };
  }
  /** Why a refused edit's text is invalid (a mask: what its slot takes), and whether for want of room. */
  _refusal(candidate) {
    const vs = candidate.result.violations, first = vs.find(isError) ?? vs[0];
    const label = this.type.definition.label ?? this.type.name;
    if (!first) return { violation: { rule: "mask", severity: "error", message: `${label} cannot take this` }, noRoom: false };
    const normalized = this.type.normalizedCodePoints(candidate.text), chosen = this.type.chosenMaskAndCheck(normalized, true);
    const misfit = chosen && chosen.check && chosen.check.rule === first.rule ? chosen.mask.layout(normalized).misfit : undefined;
    if (misfit === undefined) return { violation: first, noRoom: this.type.checks.some(c => c.rule === first.rule && c.kind === "length") };
    const only = chosen.mask.kinds.every(k => k === LITERAL || k === misfit);
    const message = misfit === null ? `${label} has no room for more characters`
      : only ? `${label} takes ${["digits", "letters", "letters and digits"][misfit]} only` : `${label} takes ${["a digit", "a letter", "a letter or a digit"][misfit]} here`;
    return { violation: { rule: first.rule, severity: first.severity, message }, noRoom: misfit === null };
  }
  /** A paste typed a character at a time, refused ones dropped; null: none kept. */
  _filteredPaste(lower, upper, replacement) {
    const field = Object.assign(Object.create(FieldEditor.prototype), this), count = field._count, a = Math.min(Math.max(lower, 0), count);
    field._selection = [a, Math.min(Math.max(upper, a), count)];
    const characters = graphemes(replacement), chunked = !this.type.hasNumberGroups;
    let budget = 8 * (utf8Length(this._text) + utf8Length(replacement)) + 65536, tries = 256, i = 0, run = 1, kept = false;
    while (i < characters.length && budget > 0 && tries-- > 0) {
      const length = Math.min(run, characters.length - i);
      budget -= utf8Length(field._text) + length + 64;
      const attempt = field._attempt(...field._selection, characters.slice(i, i + length).join(""));
      if (attempt.applied) { field._take(attempt.candidate); kept = true; i += length; if (chunked) run *= 2; }
      else if (length > 1) run = Math.max(1, length >> 1);
      else if (field._refusal(attempt.candidate).noRoom) break;
      else { i++; run = 1; }
    }
    return kept ? field : null;
  }
}

// MARK: A text field in a page

const INPUT_MODES = { "number-pad": "numeric", "decimal-pad": "decimal", phone: "tel", email: "email", url: "url", default: "text" };
const CAPITALIZE = { never: "none", words: "words", sentences: "sentences", all: "characters" };

/** The UTF-16 range a word deletion removes. */
function wordRange(text, caret, forward) {
  const word = c => isDigit(c) || (categoryOf(c) & (LETTER | MARK)) !== 0, at = j => cpAt(text, forward ? j : j - 1 - (j > 1 && cpAt(text, j - 2) > 0xFFFF));
  let j = caret;
  const move = () => { j += (forward ? 1 : -1) * (at(j) > 0xFFFF ? 2 : 1); };
  while (forward ? j < text.length : j > 0) { if (word(at(j))) break; move(); }
  while (forward ? j < text.length : j > 0) { if (!word(at(j))) break; move(); }
  return forward ? [caret, j] : [j, caret];
}

/**
 * Drives an `<input>` with a field type through `beforeinput`, `input` and composition events
 * (composed text is judged once, when committed); sets `inputmode`, `autocomplete`,
 * `autocapitalize`, `aria-invalid` (as the timing allows) and `aria-describedby` to the message
 * element, a polite live region written only when its message changes. Options: `policy`,
 * `timing`, `message` (an element), `onChange(result, editor, {moment, refusal})`. See formulary.d.ts.
 */
export function attach(input, type, options = {}) {
  const editor = new FieldEditor(type, { policy: "accept-all", timing: options.timing });
  if (input.value) editor.setText(input.value);
  editor.policy = policyOf(options.policy ?? "refuse-invalid");
  const d = type.definition, message = options.message || null, saved = {};
  const set = (name, value) => {
    if (!has(saved, name)) saved[name] = input.getAttribute(name);
    if (value === null) input.removeAttribute(name); else input.setAttribute(name, value);
  };
  if (d.keyboard) set("inputmode", INPUT_MODES[d.keyboard] || "text");
  set("autocomplete", d.autocomplete || "off");
  if (d.autocapitalize) set("autocapitalize", CAPITALIZE[d.autocapitalize]);
  if (message) {
    message.id ||= "formulary-message-" + Math.random().toString(36).slice(2);
    const described = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    if (!described.includes(message.id)) set("aria-describedby", described.concat(message.id).join(" "));
    message.setAttribute("aria-live", "polite");
  }
  let left = false, submitted = false, composing = null, refusal = null, shown;
  function render() {
    const moment = submitted ? "submitting" : left ? "leaving" : "typing";
    const invalid = (editor.externalError ?? null) !== null || (moment === "typing" ? editor.timing === "typing" && editor.result.verdict === "invalid"
      : !(moment === "leaving" && editor.timing === "submit") && type.validate(editor.text).verdict === "invalid");
    set("aria-invalid", String(invalid));
    const text = refusal ?? editor.visibleMessage(moment) ?? "";
    if (message && text !== shown) message.textContent = shown = text;   // a live region announces whatever is written: only changes
    options.onChange?.(editor.result, editor, { moment, refusal });
  }
  function apply(edit) {
    const outcome = edit();
    refusal = outcome && !outcome.accepted && outcome.refusal ? outcome.refusal.message : null;
    if (input.value !== editor.text) input.value = editor.text;
    if (input.ownerDocument.activeElement === input) input.setSelectionRange(editor.selectionStart, editor.selectionEnd);
    render();
    input.dispatchEvent(new Event("input", { bubbles: true }));   // for the page's own listeners; onInput sees nothing to do
  }
  const sync = () => editor.select(input.selectionStart ?? editor.text.length, input.selectionEnd ?? editor.text.length);
  const on = {
    beforeinput(event) {
      const kind = event.inputType || "";
      if (composing !== null || event.isComposing || kind === "insertCompositionText") return;   // judged at compositionend
      // Enter (a line break, which an <input> never inserts) is left to submit the form.
      if (!/^(insert|delete)/.test(kind) || kind === "insertLineBreak" || kind === "insertParagraph") { if (/^(history|format)/.test(kind)) event.preventDefault(); return; }
      event.preventDefault();
      sync();
      const a = editor.selectionStart, b = editor.selectionEnd, data = event.data ?? event.dataTransfer?.getData("text/plain") ?? "";
      apply(() => {
        if (kind.startsWith("insert")) return kind === "insertReplacementText" && a === b ? editor.setText(data) : editor.insert(data);
        if (a !== b) return editor.replace(a, b, "");
        if (kind === "deleteContentForward") return editor.deleteForward();
        if (!/^delete(Word|SoftLine|HardLine)/.test(kind)) return editor.deleteBackward();
        const forward = kind.endsWith("Forward"), [from, to] = kind.startsWith("deleteWord") ? wordRange(editor.text, a, forward) : forward ? [a, editor.text.length] : [0, a];
        return from === to ? null : editor.replace(from, to, "");
      });
    },
    input() {
      if (composing !== null || input.value === editor.text) return;
      // A change no beforeinput announced (some autofills): the edit is what differs.
      const old = editor.text, now = input.value;
      let start = 0, end = 0;
      while (start < Math.min(old.length, now.length) && old[start] === now[start]) start++;
      while (end < Math.min(old.length, now.length) - start && old[old.length - 1 - end] === now[now.length - 1 - end]) end++;
      apply(() => editor.replace(start, old.length - end, now.slice(start, now.length - end)));
    },
    compositionstart() { sync(); composing = [editor.selectionStart, editor.selectionEnd]; },
    compositionend(event) {
      if (composing === null) return;
      const [a, b] = composing;
      composing = null;
      apply(() => editor.replace(a, b, event.data || ""));
    },
    blur() { left = true; apply(() => editor.commit()); },
  };
  const submit = () => { submitted = true; refusal = null; render(); }, form = input.form;
  for (const name in on) input.addEventListener(name, on[name]);
  form?.addEventListener("submit", submit, true);
  apply(() => null);
  return {
    /** The editor behind the field. */
    editor,
    /** The formatted text the field shows. */
    get value() { return editor.text; },
    /** The text without what the mask inserted. */
    get unformatted() { return type.unformat(editor.text); },
    /** The live result (led by an external error while one stands). */
    get result() { return editor.result; },
    /** The final result, as a submitted form judges the field. */
    get finalResult() { return type.validate(editor.text); },
    /** Replaces the text (as a paste over everything, never refused). */
    setValue(value) { const p = editor.policy; editor.policy = "accept-all"; apply(() => editor.setText(value)); editor.policy = p; },
    /** Shows a message from the app's server ("Email already in use") until an edit changes the text. */
    setExternalError(text) { editor.externalError = text ?? null; render(); },
    /** Says the form is being submitted: the message and `aria-invalid` then follow the final verdict. */
    submit,
    /** Removes the listeners and puts back the attributes `attach` changed. */
    detach() {
      for (const name in on) input.removeEventListener(name, on[name]);
      form?.removeEventListener("submit", submit, true);
      for (const name in saved) if (saved[name] === null) input.removeAttribute(name); else input.setAttribute(name, saved[name]);
      message?.removeAttribute("aria-live");
    },
  };
}
